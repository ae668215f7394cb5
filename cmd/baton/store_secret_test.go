package main

import (
	"net/url"
	"os/user"
	"path/filepath"
	"strings"
	"testing"

	"github.com/batonrt/baton/store/postgres/pgtest"
)

// A postgres:// store that cannot be opened is named in the error without
// its password, which would otherwise land in a service's log.
func TestStoreErrorHidesPassword(t *testing.T) {
	isolate(t)
	t.Setenv("BATON_SERVE_TOKEN", "")
	script := writeScript(t, `{"replies":[{"text":"hi"}]}`)
	// Nothing listens on port 1, so opening fails at once.
	const secret = "hunter2-in-the-url"
	for _, url := range []string{
		"postgres://baton:" + secret + "@127.0.0.1:1/test?connect_timeout=5",
		"postgresql://baton@127.0.0.1:1/test?password=" + secret + "&connect_timeout=5",
		// Unescaped, a # in the password makes the URL one Go cannot
		// parse.
		"postgres://baton:" + secret + "#x@127.0.0.1:1/test",
	} {
		for _, args := range [][]string{
			{"serve", "--provider", "scripted", "--script", script, "--workspace", t.TempDir(), "--addr", "127.0.0.1:0", "--store", url},
			{"sessions", "--store", url},
		} {
			code, _, stderr := cli(t, "", args...)
			if code != exitFailure || strings.Contains(stderr, secret) || !strings.Contains(stderr, "127.0.0.1:1") {
				t.Errorf("%s --store %s: exit %d, want %d naming the host and not the password:\n%s", args[0], url, code, exitFailure, stderr)
			}
		}
	}
}

// secretStoreURL is a fresh PostgreSQL schema's URL with a password in
// its user part (the server's own, if its URL has one; trust auth takes
// any other), and that password.
func secretStoreURL(t *testing.T) (storeURL, secret string) {
	t.Helper()
	u, err := url.Parse(pgtest.SchemaURL(t))
	if err != nil {
		t.Fatal(err)
	}
	if p, ok := u.User.Password(); ok {
		return u.String(), p
	}
	name := u.User.Username()
	if name == "" {
		me, err := user.Current()
		if err != nil {
			t.Fatal(err)
		}
		name = me.Username
	}
	secret = "hunter2-in-the-url"
	u.User = url.UserPassword(name, secret)
	return u.String(), secret
}

// The commands run, fork, log and demo print for the user to type next
// repeat --store, a postgres:// URL's password masked: what a terminal
// shows ends up in scrollback, screen shares and pasted logs.
func TestFollowUpCommandsHidePassword(t *testing.T) {
	isolate(t)
	storeURL, secret := secretStoreURL(t)
	script := writeScript(t, `{"replies":[{"text":"hi"}]}`)
	code, stdout, stderr := cli(t, "", "demo", "--store", storeURL)
	m := sessionLine.FindStringSubmatch(stdout)
	if code != exitOK || m == nil {
		t.Fatalf("demo: exit %d:\n%s%s", code, stdout, stderr)
	}
	if code, _, stderr := cli(t, "", "import", "--store", storeURL, filepath.Join(sessionsDir, "delegation.jsonl")); code != exitOK {
		t.Fatalf("import: %s", stderr)
	}
	printed := map[string]string{"demo": stdout + stderr}
	for _, args := range [][]string{
		{"run", "--provider", "scripted", "--script", script, "--workspace", t.TempDir(), "hello"},
		{"fork", m[1], "3"},
		{"log", recordedSessions["delegation.jsonl"].id},
		{"demo", "--json"},
	} {
		code, stdout, stderr := cli(t, "", append(args, "--store", storeURL)...)
		if code != exitOK {
			t.Fatalf("%s: exit %d: %s", args[0], code, stderr)
		}
		printed[strings.Join(args[:min(2, len(args))], " ")] = stdout + stderr
	}
	for c, out := range printed {
		if strings.Contains(out, secret) || !strings.Contains(out, ":xxxxx@") {
			t.Errorf("%s repeats --store with its password, or not at all:\n%s", c, out)
		}
	}
}

// serve's warning that the bearer token goes between serve processes
// unencrypted names the advertised URL without its password.
func TestAdvertiseWarningHidesPassword(t *testing.T) {
	isolate(t)
	t.Setenv("BATON_SERVE_TOKEN", "")
	storeURL, _ := secretStoreURL(t)
	script := writeScript(t, `{"replies":[{"text":"hi"}]}`)
	const secret = "advertised-secret"
	// Nothing is sent to the advertised host: no other process shares
	// the store.
	_, stderr := serveInProcess(t, "--provider", "scripted", "--script", script, "--workspace", t.TempDir(), "--store", storeURL,
		"--token", "a-token-of-at-least-16-bytes", "--advertise", "http://node:"+secret+"@baton-a.internal:8080")
	stderr.waitFor(t, "unencrypted")
	if got := stderr.String(); strings.Contains(got, secret) || !strings.Contains(got, "http://node:xxxxx@baton-a.internal:8080") {
		t.Errorf("the warning shows the advertised URL's password, or not the URL:\n%s", got)
	}
}
