package main

import (
	"io"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// "always" allowlists the command names and written files the prompt
// showed: a later line using only them runs unasked, a line with a new
// command asks again.
func TestInteractiveAlwaysAllowsCommandNames(t *testing.T) {
	isolate(t)
	ws, dir := t.TempDir(), t.TempDir()
	script := writeScript(t, `{"replies": [
	  {"tool_calls": [{"id": "c1", "name": "shell", "arguments": {"command": "echo one > a.txt && cat a.txt"}}]},
	  {"tool_calls": [{"id": "c2", "name": "shell", "arguments": {"command": "cat a.txt; echo two >> a.txt"}}]},
	  {"tool_calls": [{"id": "c3", "name": "shell", "arguments": {"command": "echo three | tee c.txt"}}]},
	  {"text": "Finished."}
	]}`)
	s := startInteractive(t, "run", "--allow-shell", "--provider", "scripted", "--script", script, "--store", dir, "--workspace", ws, "go")
	s.err.waitFor(t, "run shell `echo one > a.txt && cat a.txt`? [y]es/[n]o/[a]lways allow >a.txt, cat, echo ")
	io.WriteString(s.in, "a\n")
	s.err.waitFor(t, "run shell `echo three | tee c.txt`? [y]es/[n]o/[a]lways allow >c.txt, echo, tee ")
	io.WriteString(s.in, "n\n")
	if code := s.wait(t); code != 0 {
		t.Fatalf("exit %d\n%s", code, s.err.String())
	}
	if n := strings.Count(s.err.String(), "? [y]es/[n]o/[a]lways"); n != 2 {
		t.Errorf("%d approval prompts, want 2:\n%s", n, s.err.String())
	}
	if got, err := os.ReadFile(filepath.Join(ws, "a.txt")); string(got) != "one\ntwo\n" {
		t.Errorf("a.txt holds %q (%v), want both lines", got, err)
	}
	if _, err := os.Stat(filepath.Join(ws, "c.txt")); err == nil {
		t.Error("c.txt written, want the third line refused")
	}
}

// A question the model asks is printed with its choices; the next line
// typed answers it (a number picks a choice) and the model gets it.
func TestInteractiveQuestion(t *testing.T) {
	isolate(t)
	dir := t.TempDir()
	script := writeScript(t, `{"replies": [
	  {"tool_calls": [{"id": "q1", "name": "ask_human", "arguments": {"question": "Which city?", "choices": ["Oslo", "Bergen"]}}]},
	  {"tool_calls": [{"id": "q2", "name": "ask_human", "arguments": {"question": "When?"}}]},
	  {"text": "Booked."}
	]}`)
	s := startInteractive(t, "run", "--provider", "scripted", "--script", script, "--store", dir, "--workspace", t.TempDir(), "plan a trip")
	s.err.waitFor(t, "? Which city?\n  1) Oslo\n  2) Bergen\nanswer> ")
	io.WriteString(s.in, "2\n")
	s.err.waitFor(t, "? When?\nanswer> ")
	io.WriteString(s.in, "\n")
	io.WriteString(s.in, "in May\n")
	if code := s.wait(t); code != 0 {
		t.Fatalf("exit %d\n%s", code, s.err.String())
	}
	id := strings.Fields(s.err.String()[strings.LastIndex(s.err.String(), "session "):])[1]
	_, log, _ := cli(t, "", "log", "--store", dir, id)
	for _, want := range []string{"Bergen", "in May", "Booked."} {
		if !strings.Contains(log, want) {
			t.Errorf("transcript does not say %q:\n%s", want, log)
		}
	}
}

// A question open when stdin ends (Ctrl-D) gets an answer saying nobody
// can answer, and the run goes on to its end instead of waiting forever.
func TestQuestionWhenStdinEnds(t *testing.T) {
	isolate(t)
	dir := t.TempDir()
	script := writeScript(t, `{"replies": [
	  {"tool_calls": [{"id": "q1", "name": "ask_human", "arguments": {"question": "Which city?"}}]},
	  {"text": "I will pick one myself."}
	]}`)
	s := startInteractive(t, "run", "--provider", "scripted", "--script", script, "--store", dir, "--workspace", t.TempDir(), "plan a trip")
	s.err.waitFor(t, "? Which city?\nanswer> ")
	s.endInput(t)
	id := strings.Fields(s.err.String()[strings.LastIndex(s.err.String(), "session "):])[1]
	_, log, _ := cli(t, "", "log", "--store", dir, id)
	for _, want := range []string{"stdin was closed", "I will pick one myself."} {
		if !strings.Contains(log, want) {
			t.Errorf("transcript does not say %q:\n%s", want, log)
		}
	}
}
