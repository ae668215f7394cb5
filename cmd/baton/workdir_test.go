package main

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

func TestRunWorkdirAndInstructions(t *testing.T) {
	isolate(t)
	dir, ws := t.TempDir(), t.TempDir()
	sub := filepath.Join(ws, "svc")
	for _, d := range []string{filepath.Join(ws, ".git"), sub} {
		if err := os.MkdirAll(d, 0o755); err != nil {
			t.Fatal(err)
		}
	}
	if err := os.WriteFile(filepath.Join(ws, "AGENTS.md"), []byte("Answer in French.\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	script := writeScript(t, `{"replies": [
	  {"text": "Writing.", "tool_calls": [{"id": "c1", "name": "write_file", "arguments": {"path": "notes.txt", "content": "hi"}}]},
	  {"text": "Done."}
	]}`)
	code, _, stderr := cli(t, "", "run", "--provider", "scripted", "--script", script, "--store", dir, "--workspace", ws, "--workdir", sub, "write notes")
	if code != 0 {
		t.Fatalf("exit %d: %s", code, stderr)
	}
	if b, err := os.ReadFile(filepath.Join(sub, "notes.txt")); err != nil || string(b) != "hi" {
		t.Errorf("write_file did not start in the working directory: %v %q", err, b)
	}
	id := strings.Fields(stderr[strings.Index(stderr, "session "):])[1]
	_, export, _ := cli(t, "", "export", "--store", dir, id)
	if !strings.Contains(export, `"name":"AGENTS.md"`) || !strings.Contains(export, "Answer in French.") {
		t.Errorf("the session does not record the project instructions:\n%.2000s", export)
	}

	code, _, stderr = cli(t, "", "run", "--provider", "scripted", "--script", script, "--store", dir, "--workspace", sub, "--workdir", ws, "hi")
	if code == 0 || !strings.Contains(stderr, "not inside the workspace") {
		t.Errorf("a workdir outside the workspace: exit %d %s", code, stderr)
	}
}

func TestRunTextToolCalls(t *testing.T) {
	isolate(t)
	script := writeScript(t, `{"replies": [
	  {"text": "{\"name\": \"list_files\", \"arguments\": {}}"},
	  {"text": "Empty."}
	]}`)
	for _, on := range []bool{false, true} {
		args := []string{"run", "--provider", "scripted", "--script", script, "--store", t.TempDir(), "--workspace", t.TempDir()}
		if on {
			args = append(args, "--text-tool-calls")
		}
		code, stdout, stderr := cli(t, "", append(args, "look")...)
		if code != 0 {
			t.Fatalf("exit %d: %s", code, stderr)
		}
		if ran := strings.Contains(stdout, "→ #1 list_files"); ran != on || strings.Contains(stdout, "Empty.") != on {
			t.Errorf("--text-tool-calls=%v:\n%s", on, stdout)
		}
	}
}
