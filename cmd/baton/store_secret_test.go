package main

import (
	"strings"
	"testing"
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
