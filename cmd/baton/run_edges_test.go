package main

import (
	"io"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"
)

// TestRepeatedCallIDsKeepPrinting: a model that gives calls of later
// turns the ids of earlier ones (servers that number calls per reply do)
// must not stop the terminal output: the run's last reply is shown.
func TestRepeatedCallIDsKeepPrinting(t *testing.T) {
	isolate(t)
	script := writeScript(t, `{"replies": [
	  {"text": "One.", "tool_calls": [{"id": "call_0", "name": "list_files", "arguments": {}}]},
	  {"text": "Two.", "tool_calls": [{"id": "call_0", "name": "list_files", "arguments": {}}]},
	  {"text": "Final answer."}
	]}`)
	code, stdout, stderr := cli(t, "", "run", "--provider", "scripted", "--script", script, "--store", t.TempDir(), "--workspace", t.TempDir(), "go")
	if code != exitOK {
		t.Fatalf("exit %d: %s", code, stderr)
	}
	for _, want := range []string{"← #2 list_files", "Final answer.", "── done"} {
		if !strings.Contains(stdout, want) {
			t.Errorf("stdout lacks %q, the printer stopped:\n%s", want, stdout)
		}
	}
}

// TestResumeOpenQuestionWithoutTerminal: a session whose process died
// while the model's question waited for an answer goes on from a
// non-terminal (a script, CI) without waiting forever for an answer
// nobody can type.
func TestResumeOpenQuestionWithoutTerminal(t *testing.T) {
	isolate(t)
	dir := t.TempDir()
	script := writeScript(t, `{"replies": [
	  {"tool_calls": [{"id": "q1", "name": "ask_human", "arguments": {"question": "Which city?"}}]},
	  {"text": "Booked."}
	]}`)
	s := startInteractive(t, "run", "--provider", "scripted", "--script", script, "--store", dir, "--workspace", t.TempDir(), "plan a trip")
	s.err.waitFor(t, "answer> ")
	io.WriteString(s.in, "Oslo\n")
	if code := s.wait(t); code != exitOK {
		t.Fatalf("exit %d\n%s", code, s.err.String())
	}
	id := strings.Fields(s.err.String()[strings.LastIndex(s.err.String(), "session "):])[1]
	// Step 2 is the model's question: where a kill -9 at the prompt
	// leaves the session.
	if code, _, stderr := cli(t, "", "fork", "--store", dir, "--as", "asked", id, "2"); code != exitOK {
		t.Fatal(stderr)
	}
	type result struct {
		code           int
		stdout, stderr string
	}
	done := make(chan result, 1)
	go func() {
		code, stdout, stderr := cli(t, "", "run", "--provider", "scripted", "--script", writeScript(t, `{"loop": true, "replies": [{"text": "Going on."}]}`), "--store", dir, "--workspace", t.TempDir(), "--session", "asked", "more")
		done <- result{code, stdout, stderr}
	}()
	select {
	case r := <-done:
		if r.code != exitOK {
			t.Fatalf("exit %d\n%s%s", r.code, r.stdout, r.stderr)
		}
	case <-time.After(20 * time.Second):
		t.Fatal("run --session waits forever for an answer to the open question, with nobody at a terminal to give it")
	}
	_, log, _ := cli(t, "", "log", "--store", dir, "asked")
	if !strings.Contains(log, "nobody can answer") || strings.Count(log, "── settled") != 2 {
		t.Errorf("transcript:\n%s", log)
	}
}

// TestCtrlCWhileMCPServerStarts: Ctrl-C while an --mcp server is being
// started (a server that never answers its handshake) stops baton at
// once with exit 130, instead of being ignored until the 30s connect
// timeout, which then fails with exit 1.
func TestCtrlCWhileMCPServerStarts(t *testing.T) {
	isolate(t)
	script := writeScript(t, `{"replies": [{"text": "never"}]}`)
	s := startInteractive(t, "run", "--mcp", "mute=sleep 60", "--provider", "scripted", "--script", script, "--store", t.TempDir(), "--workspace", t.TempDir(), "hi")
	time.Sleep(300 * time.Millisecond)
	s.interrupts <- os.Interrupt
	start := time.Now()
	code := s.wait(t)
	if took := time.Since(start); code != exitStopped || took > 5*time.Second {
		t.Errorf("exit %d after %v, want %d at once\nstdout: %s\nstderr: %s", code, took.Round(time.Second), exitStopped, s.out.String(), s.err.String())
	}
	if strings.Contains(s.out.String(), "never") {
		t.Errorf("the model was called after Ctrl-C:\n%s", s.out.String())
	}
}

// TestBadOutputSchemaFile: an --output-schema file that is JSON but no
// object schema is a bad command line (exit 2), as a file that is not
// JSON is, and baton names no session it never stored.
func TestBadOutputSchemaFile(t *testing.T) {
	isolate(t)
	dir := t.TempDir()
	schema := filepath.Join(t.TempDir(), "answer.json")
	if err := os.WriteFile(schema, []byte(`{"type": "objekt"}`), 0o644); err != nil {
		t.Fatal(err)
	}
	script := writeScript(t, `{"replies": [{"text": "{}"}]}`)
	code, _, stderr := cli(t, "", "run", "--output-schema", schema, "--provider", "scripted", "--script", script, "--store", dir, "--workspace", t.TempDir(), "hi")
	if code != exitUsage || !strings.Contains(stderr, "type must be object") {
		t.Errorf("exit %d, want %d: %s", code, exitUsage, stderr)
	}
	if i := strings.Index(stderr, "session "); i >= 0 {
		id := strings.Fields(stderr[i:])[1]
		if c, _, e := cli(t, "", "log", "--store", dir, id); c != exitOK {
			t.Errorf("baton named session %s, which it never stored: %s", id, e)
		}
	}
}

// TestRunNamesOnlyStoredSessions: a run refused before it starts (here a
// config CreateAgent refuses, a temperature o3 does not take under
// OpenAI's rules) names no session, since none was stored: the printed
// 'baton log ID' would fail. No request is sent.
func TestRunNamesOnlyStoredSessions(t *testing.T) {
	isolate(t)
	dir := t.TempDir()
	code, _, stderr := cli(t, "", "run", "--base-url", "http://127.0.0.1:1/v1", "--openai-rules", "openai", "--model", "o3", "--temperature", "0.5", "--store", dir, "--workspace", t.TempDir(), "hi")
	if code != exitFailure || !strings.Contains(stderr, `Sampling.Temperature must be 1 or unset for o3`) {
		t.Fatalf("exit %d: %s", code, stderr)
	}
	if i := strings.Index(stderr, "session "); i >= 0 {
		id := strings.Fields(stderr[i:])[1]
		if c, _, e := cli(t, "", "log", "--store", dir, id); c != exitOK {
			t.Errorf("baton named session %s, which it never stored: %s", id, e)
		}
	}
}
