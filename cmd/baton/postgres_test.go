package main

import (
	"strings"
	"testing"

	"github.com/batonrt/baton/store/postgres/pgtest"
)

// --store takes a postgres:// URL wherever it takes a folder.
func TestStorePostgresURL(t *testing.T) {
	isolate(t)
	url := pgtest.SchemaURL(t)
	code, stdout, stderr := cli(t, "", "demo", "--store", url)
	if code != 0 {
		t.Fatalf("demo: exit %d: %s", code, stderr)
	}
	m := sessionLine.FindStringSubmatch(stdout)
	if m == nil || !strings.Contains(stdout, "replay verified: 8 steps") {
		t.Fatalf("demo output:\n%s", stdout)
	}
	id := m[1]
	code, stdout, stderr = cli(t, "", "sessions", "--store", url)
	if code != 0 || !strings.Contains(stdout, id) {
		t.Fatalf("sessions: exit %d %q %s", code, stdout, stderr)
	}
	code, stdout, stderr = cli(t, "", "replay", id, "--store", url)
	if code != 0 || !strings.Contains(stdout, "replay verified: 8 steps") {
		t.Fatalf("replay: exit %d %q %s", code, stdout, stderr)
	}
	code, _, stderr = cli(t, "", "log", "nobody", "--store", url)
	if code != exitFailure || !strings.Contains(stderr, "unknown session") {
		t.Fatalf("log of an unknown session: exit %d %s", code, stderr)
	}
}
