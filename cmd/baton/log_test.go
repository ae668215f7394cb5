package main

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// TestLogShowsWhatTheModelSaw prints recorded sessions the way the model
// saw them: every result under its call's number, in call order, with
// skipped, refused and aborted results and steering where history has
// them.
func TestLogShowsWhatTheModelSaw(t *testing.T) {
	isolate(t)
	var out strings.Builder
	for _, name := range []string{"parallel-tools.jsonl", "steering.jsonl", "approvals.jsonl", "abort.jsonl", "resumed-crash.jsonl", "compaction.jsonl", "compaction-condensed.jsonl"} {
		dir := t.TempDir()
		if code, _, stderr := cli(t, "", "import", "--store", dir, filepath.Join(sessionsDir, name)); code != exitOK {
			t.Fatalf("import %s: %s", name, stderr)
		}
		code, stdout, stderr := cli(t, "", "log", "--store", dir, recordedSessions[name].id)
		if code != exitOK {
			t.Fatalf("log %s: exit %d: %s", name, code, stderr)
		}
		out.WriteString("=== " + name + "\n" + stdout)
	}
	golden(t, "log_recorded.golden", out.String())
}

// TestLogShowsRefusedCalls: an unknown tool and malformed arguments are
// answered with errors the model receives, and the log shows them.
func TestLogShowsRefusedCalls(t *testing.T) {
	isolate(t)
	dir, ws := t.TempDir(), t.TempDir()
	script := writeScript(t, `{"replies": [
	  {"text": "Trying.", "tool_calls": [
	    {"id": "c1", "name": "no_such_tool", "arguments": {}},
	    {"id": "c2", "name": "read_file", "arguments": "{\"path\": "},
	    {"id": "c3", "name": "list_files", "arguments": {}}]},
	  {"text": "Done."}
	]}`)
	code, _, stderr := cli(t, "", "run", "--provider", "scripted", "--script", script, "--store", dir, "--workspace", ws, "try")
	if code != exitOK {
		t.Fatalf("run: exit %d: %s", code, stderr)
	}
	id := strings.Fields(stderr)[1]
	_, log, _ := cli(t, "", "log", "--store", dir, id)
	for _, want := range []string{"✗ #1 no_such_tool: ", "✗ #2 read_file: ", "← #3 list_files: "} {
		if !strings.Contains(log, want) {
			t.Errorf("log lacks %q:\n%s", want, log)
		}
	}
	if i, j := strings.Index(log, "#1 no_such_tool:"), strings.Index(log, "#3 list_files:"); i < 0 || j < i {
		t.Errorf("results out of call order:\n%s", log)
	}
}

// TestTerminalEscapes: escape sequences in model text, tool output and a
// session id reach neither run's nor log's output raw.
func TestTerminalEscapes(t *testing.T) {
	isolate(t)
	dir, ws := t.TempDir(), t.TempDir()
	evil := "title\x1b]0;pwned\x07 clear\x1b[2J back\r over\u202eright"
	if err := os.WriteFile(filepath.Join(ws, "evil.txt"), []byte(evil), 0o644); err != nil {
		t.Fatal(err)
	}
	script := writeScript(t, `{"replies": [
	  {"text": "Reading \u001b[31mred\u001b[0m.", "tool_calls": [{"id": "c1", "name": "read_file", "arguments": {"path": "evil.txt"}}]},
	  {"text": "It says \u001b]0;owned\u0007 this."}
	]}`)
	code, stdout, stderr := cli(t, "", "run", "--provider", "scripted", "--script", script, "--store", dir, "--workspace", ws, "read evil.txt")
	if code != exitOK {
		t.Fatalf("run: exit %d: %s", code, stderr)
	}
	id := strings.Fields(stderr)[1]
	_, log, _ := cli(t, "", "log", "--store", dir, id)
	for name, out := range map[string]string{"run": stdout + stderr, "log": log} {
		if i := strings.IndexFunc(out, func(r rune) bool { return unsafeRune(r, true) }); i >= 0 {
			t.Errorf("%s prints a raw control character at %d: %q", name, i, out)
		}
		for _, want := range []string{`\x1b]0;pwned\x07`, `\x1b[31mred`, `\u202e`} {
			if !strings.Contains(out, want) {
				t.Errorf("%s lacks the escaped %q:\n%s", name, want, out)
			}
		}
	}
	// An id a terminal would not show as typed is refused before anything
	// is stored.
	code, _, stderr = cli(t, "", "run", "--provider", "scripted", "--script", script, "--store", dir, "--workspace", ws, "--session", "a\x1b[2Jb", "hi")
	if code != exitUsage || !strings.Contains(stderr, `--session "a\x1b[2Jb" holds control characters`) {
		t.Errorf("control id: exit %d: %q", code, stderr)
	}
	// So is one with a character shown as nothing, as the server refuses
	// such a thread id.
	code, _, stderr = cli(t, "", "run", "--provider", "scripted", "--script", script, "--store", dir, "--workspace", ws, "--session", "a\u200bb", "hi")
	if code != exitUsage || !strings.Contains(stderr, `--session "a\u200bb" holds control characters`) {
		t.Errorf("zero-width id: exit %d: %q", code, stderr)
	}
}
