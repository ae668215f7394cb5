package main

import (
	"path/filepath"
	"strings"
	"testing"
)

// TestHeadlessChildExported: a delegated run recorded without a head of
// its own, which log and replay read by its id, is exported by that id
// too, and the export imports elsewhere as that session, replaying as it
// did in its parent.
func TestHeadlessChildExported(t *testing.T) {
	isolate(t)
	dir := importRecorded(t, "delegation.jsonl")
	const child = "calm-robin-ad6f/2.0"
	out := filepath.Join(t.TempDir(), "child.jsonl")
	if code, _, stderr := cli(t, "", "export", "--store", dir, "-o", out, child); code != exitOK {
		t.Fatalf("export %s: exit %d: %s", child, code, stderr)
	}
	other := t.TempDir()
	code, stdout, stderr := cli(t, "", "import", "--store", other, out)
	if code != exitOK || stdout != "imported "+child+"\n" {
		t.Fatalf("import: exit %d\nstdout: %s\nstderr: %s", code, stdout, stderr)
	}
	_, want, _ := cli(t, "", "log", "--store", dir, child)
	if _, got, _ := cli(t, "", "log", "--store", other, child); got != want {
		t.Errorf("the imported child's log differs:\n%s\nwant:\n%s", got, want)
	}
	code, stdout, stderr = cli(t, "", "replay", "--store", other, child)
	if code != exitOK || !strings.Contains(stdout, "replay verified: 4 steps") {
		t.Errorf("replay of the imported child: exit %d\nstdout: %s\nstderr: %s", code, stdout, stderr)
	}
}
