package main

import (
	"io"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

func writeAgents(t *testing.T, body string) string {
	t.Helper()
	path := filepath.Join(t.TempDir(), "agents.json")
	if err := os.WriteFile(path, []byte(body), 0o644); err != nil {
		t.Fatal(err)
	}
	return path
}

// TestRunWithDelegates: run --agents offers the file's agents as
// delegate_NAME tools; the child's output is indented under the call that
// started it, the session replays with its child, and log --graph draws
// the link.
func TestRunWithDelegates(t *testing.T) {
	isolate(t)
	dir, ws := t.TempDir(), t.TempDir()
	if err := os.WriteFile(filepath.Join(ws, "notes.txt"), []byte("fjords"), 0o644); err != nil {
		t.Fatal(err)
	}
	agents := writeAgents(t, `{"agents": [
	  {"name": "reader", "description": "Reads files.", "system": "You read files.", "tools": ["read_file"]}
	]}`)
	// One child at a time, so the shared script plays in a fixed order:
	// parent, child, child, parent.
	script := writeScript(t, `{"replies": [
	  {"text": "Asking the reader.", "tool_calls": [{"id": "c1", "name": "delegate_reader", "arguments": {"task": "read notes.txt"}}]},
	  {"text": "Reading.", "tool_calls": [{"id": "r1", "name": "read_file", "arguments": {"path": "notes.txt"}}]},
	  {"text": "It says fjords."},
	  {"text": "The notes are about fjords."}
	]}`)
	code, stdout, stderr := cli(t, "", "run", "--provider", "scripted", "--script", script, "--store", dir, "--workspace", ws, "--agents", agents, "summarize", "notes")
	if code != 0 {
		t.Fatalf("exit %d: %s", code, stderr)
	}
	id := strings.Fields(stderr)[1]
	golden(t, "run_delegates.golden", strings.ReplaceAll(stdout, id, "$SESSION"))
	code, stdout, _ = cli(t, "", "replay", "--store", dir, id)
	if code != 0 || stdout != "replay verified: 8 steps, byte for byte: 4 of the session's own and 4 of 1 delegated run\n" {
		t.Errorf("replay: exit %d %q", code, stdout)
	}
	_, graph, _ := cli(t, "", "log", "--graph", "--store", dir, id)
	if strings.Count(graph, "|\\ link") != 1 || strings.Count(graph, "| * ") != 4 {
		t.Errorf("graph does not link the child's 4 nodes once:\n%s", graph)
	}
}

func TestAgentsFileErrors(t *testing.T) {
	isolate(t)
	cases := []struct{ body, want string }{
		{`{"agents": [{"name": "a", "system": "s", "delegates": ["b"]}]}`, `a delegates to "b", which the file does not declare`},
		{`{"agents": [{"name": "a", "system": "s"}, {"name": "a", "system": "t"}]}`, `agent "a" is declared twice`},
		{`{"agents": [{"name": "a b", "system": "s"}]}`, `agent name "a b" must be letters, digits, _ or -`},
		{`{"agents": [{"name": "a", "system": "s", "tools": ["shell"]}]}`, `: agent "a": no tool "shell" among the run's: list_files, read_file, write_file (--allow-shell adds shell, --allow-http http_get)` + "\n"},
		{`{"agents": [{"name": "a", "system": "s", "delegates": ["b"]}, {"name": "b", "system": "s", "tools": ["read_file", "http_get"]}]}`, `: agent "b": no tool "http_get" among the run's`},
		{`{"agents": [{"name": "a", "system": "s", "max_turns": -1}]}`, `: agent "a": max_turns must be in 1..100000 (none means 64), got -1` + "\n"},
		{`{"max_depth": 99, "agents": []}`, `max_depth must be in 0..16`},
		{`{"agents": [{"name": "a", "sytem": "s"}]}`, `unknown field "sytem"`},
		// Three agents delegating to each other unroll to 3^depth.
		{`{"max_depth": 9, "agents": [{"name": "a", "system": "s", "delegates": ["a", "b", "c"]}, {"name": "b", "system": "s", "delegates": ["a", "b", "c"]}, {"name": "c", "system": "s", "delegates": ["a", "b", "c"]}]}`, `the delegates unroll to more than 4096 agents down to max_depth 9`},
		{`{"max_depth": 16, "agents": [{"name": "a", "system": "s", "delegates": ["a", "b", "c"]}, {"name": "b", "system": "s", "delegates": ["a", "b", "c"]}, {"name": "c", "system": "s", "delegates": ["a", "b", "c"]}]}`, `the delegates unroll to more than 4096 agents down to max_depth 16`},
	}
	for _, c := range cases {
		script := writeScript(t, `{"replies": [{"text": "hi"}]}`)
		code, _, stderr := cli(t, "", "run", "--provider", "scripted", "--script", script, "--store", t.TempDir(), "--workspace", t.TempDir(), "--agents", writeAgents(t, c.body), "hi")
		if code == 0 || !strings.Contains(stderr, c.want) {
			t.Errorf("%s: exit %d, stderr %q, want it to say %q", c.body, code, stderr, c.want)
		}
	}
}

// "always" answered for a delegate's call holds for the whole run: the
// second delegate call's child runs the same command unasked.
func TestAlwaysHoldsForLaterDelegates(t *testing.T) {
	isolate(t)
	dir, ws := t.TempDir(), t.TempDir()
	agents := writeAgents(t, `{"agents": [
	  {"name": "worker", "description": "Runs commands.", "system": "You run commands.", "tools": ["shell"]}
	]}`)
	// One child at a time, so the shared script plays in a fixed order.
	script := writeScript(t, `{"replies": [
	  {"tool_calls": [{"id": "c1", "name": "delegate_worker", "arguments": {"task": "say one"}}]},
	  {"tool_calls": [{"id": "w1", "name": "shell", "arguments": {"command": "echo one"}}]},
	  {"text": "Said one."},
	  {"tool_calls": [{"id": "c2", "name": "delegate_worker", "arguments": {"task": "say two"}}]},
	  {"tool_calls": [{"id": "w1", "name": "shell", "arguments": {"command": "echo two"}}]},
	  {"text": "Said two."},
	  {"text": "Both said."}
	]}`)
	s := startInteractive(t, "run", "--allow-shell", "--provider", "scripted", "--script", script, "--store", dir, "--workspace", ws, "--agents", agents, "go")
	s.err.waitFor(t, "run shell `echo one`? [y]es/[n]o/[a]lways allow echo ")
	io.WriteString(s.in, "a\n")
	// A second prompt would be answered "no" by the end of input.
	s.endInput(t)
	if n := strings.Count(s.err.String(), "? [y]es/[n]o/[a]lways"); n != 1 {
		t.Errorf("%d approval prompts, want 1:\n%s", n, s.err.String())
	}
}
