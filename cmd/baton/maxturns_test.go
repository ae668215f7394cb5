package main

import (
	"strings"
	"testing"
)

// --max-turns sets the run's cap on model calls, which a long task would
// otherwise meet at the default with no way to raise it from the command
// line; a cap out of range is a usage error.
func TestRunMaxTurns(t *testing.T) {
	isolate(t)
	call := `{"tool_calls":[{"name":"list_files","arguments":"{}"}]}`
	script := writeScript(t, `{"replies":[`+call+`,`+call+`,`+call+`,{"text":"done"}]}`)
	args := []string{"run", "--provider", "scripted", "--script", script, "--store", t.TempDir(), "--workspace", t.TempDir()}

	code, stdout, stderr := cli(t, "", append(args, "--max-turns", "2", "look")...)
	if code != exitFailure || !strings.Contains(stdout, "── faulted: max_turns: reached the cap of 2 model calls") {
		t.Errorf("--max-turns 2: exit %d, stdout:\n%s\nstderr:\n%s", code, stdout, stderr)
	}
	code, stdout, stderr = cli(t, "", append(args, "--max-turns", "4", "look")...)
	if code != exitOK || !strings.Contains(stdout, "── done: 4 model calls") {
		t.Errorf("--max-turns 4: exit %d, stdout:\n%s\nstderr:\n%s", code, stdout, stderr)
	}
	for _, n := range []string{"0", "-1", "100001"} {
		code, stdout, stderr := cli(t, "", append(args, "--max-turns", n, "look")...)
		if want := "baton: run: --max-turns must be from 1 to 100000, got " + n + "\n"; code != exitUsage || stdout != "" || !strings.HasPrefix(stderr, want) {
			t.Errorf("--max-turns %s: exit %d, stdout %q, stderr %q, want %q", n, code, stdout, stderr, want)
		}
	}
}
