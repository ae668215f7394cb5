package main

import (
	"context"
	"errors"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/batonrt/baton/cadence"
	"github.com/batonrt/baton/contract"
	"github.com/batonrt/baton/ledger"
	"github.com/batonrt/baton/store"
)

const shellScript = `{"replies": [
  {"text": "Listing.", "tool_calls": [{"id": "c1", "name": "shell", "arguments": {"command": "echo from-shell > out.txt && cat out.txt"}}]},
  {"text": "Finished."}
]}`

func TestRunScripted(t *testing.T) {
	isolate(t)
	dir, ws := t.TempDir(), t.TempDir()
	script := writeScript(t, `{"replies": [
	  {"text": "Writing.", "tool_calls": [{"id": "c1", "name": "write_file", "arguments": {"path": "a/b.txt", "content": "hi"}}]},
	  {"text": "Peeking outside.", "tool_calls": [{"id": "c2", "name": "read_file", "arguments": {"path": "../escape"}}]},
	  {"text": "All done."}
	]}`)
	code, stdout, stderr := cli(t, "", "run", "--provider", "scripted", "--script", script, "--store", dir, "--workspace", ws, "write", "it")
	if code != 0 {
		t.Fatalf("exit %d: %s", code, stderr)
	}
	golden(t, "run_scripted.golden", stdout)
	if b, err := os.ReadFile(filepath.Join(ws, "a", "b.txt")); err != nil || string(b) != "hi" {
		t.Errorf("tool did not write: %v %q", err, b)
	}
	id := strings.Fields(stderr)[1]
	code, stdout, _ = cli(t, "", "replay", "--store", dir, id)
	if code != 0 || stdout != "replay verified: 6 steps, byte for byte\n" {
		t.Errorf("replay: exit %d %q", code, stdout)
	}
	// Going on with the session folds it first: the model sees the whole
	// history.
	script2 := writeScript(t, `{"replies": [{"text": "Still here."}]}`)
	code, _, stderr = cli(t, "", "run", "--provider", "scripted", "--script", script2, "--store", dir, "--workspace", ws, "--session", id, "again")
	if code != 0 {
		t.Fatalf("go on: exit %d %s", code, stderr)
	}
	_, log, _ := cli(t, "", "log", "--store", dir, id)
	if strings.Count(log, "── settled") != 2 || !strings.Contains(log, "user: again") || !strings.Contains(log, "assistant: Still here.") {
		t.Errorf("continued transcript:\n%s", log)
	}
}

func TestRunJSON(t *testing.T) {
	isolate(t)
	script := writeScript(t, `{"replies": [{"text": "Hello there."}]}`)
	code, stdout, stderr := cli(t, "", "run", "--json", "--provider", "scripted", "--script", script, "--store", t.TempDir(), "--workspace", t.TempDir(), "hi")
	if code != 0 || stderr != "" {
		t.Fatalf("exit %d, stderr %q", code, stderr)
	}
	// The output is a run log ledger reads back.
	var kinds []contract.EventKind
	for ev, err := range ledger.ReadJSONL(strings.NewReader(stdout)) {
		if err != nil {
			t.Fatalf("%v in:\n%s", err, stdout)
		}
		kinds = append(kinds, ev.Kind)
	}
	if kinds[0] != contract.EvRunStarted || kinds[len(kinds)-1] != contract.EvRunSettled {
		t.Errorf("events %v", kinds)
	}
}

func TestRunApprovals(t *testing.T) {
	isolate(t)
	tests := []struct {
		name    string
		flags   []string
		wantOut string
		ran     bool
	}{
		{"no terminal denies", nil, "denied #1 shell: stdin is not a terminal, so nobody can approve shell; run baton with --yes", false},
		{"yes approves", []string{"--yes"}, "← #1 shell: from-shell", true},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			ws := t.TempDir()
			args := append([]string{"run", "--allow-shell", "--provider", "scripted", "--script", writeScript(t, shellScript), "--store", t.TempDir(), "--workspace", ws}, tt.flags...)
			code, stdout, stderr := cli(t, "", append(args, "go")...)
			if code != 0 {
				t.Fatalf("exit %d %s", code, stderr)
			}
			if !strings.Contains(stdout, tt.wantOut) {
				t.Errorf("stdout does not say %q:\n%s", tt.wantOut, stdout)
			}
			if _, err := os.Stat(filepath.Join(ws, "out.txt")); (err == nil) != tt.ran {
				t.Errorf("shell ran: %v, want %v", err == nil, tt.ran)
			}
		})
	}
}

// interactive runs the command line as if stdin were a terminal, fed
// through a pipe the test writes to.
type interactive struct {
	in         *io.PipeWriter
	out, err   *syncBuffer
	code       chan int
	interrupts chan os.Signal
}

func startInteractive(t *testing.T, args ...string) *interactive {
	t.Helper()
	r, w := io.Pipe()
	s := &interactive{in: w, out: newSyncBuffer(), err: newSyncBuffer(), code: make(chan int, 1), interrupts: make(chan os.Signal, 2)}
	a := &app{stdin: r, stdout: s.out, stderr: s.err, interactive: true, interrupts: s.interrupts}
	go func() { s.code <- a.main(context.Background(), args) }()
	t.Cleanup(func() { w.Close() })
	return s
}

func (s *interactive) wait(t *testing.T) int {
	t.Helper()
	code := <-s.code
	s.in.Close()
	return code
}

// endInput ends stdin, as Ctrl-D does at a terminal, and fails t unless
// the run then ends on its own, with exit 0, instead of waiting for a
// line that can no longer come.
func (s *interactive) endInput(t *testing.T) {
	t.Helper()
	s.in.Close()
	select {
	case code := <-s.code:
		if code != 0 {
			t.Fatalf("exit %d\n%s", code, s.err.String())
		}
	case <-time.After(20 * time.Second):
		t.Fatalf("the run still waits for an answer after stdin ended:\n%s%s", s.out.String(), s.err.String())
	}
}

func TestInteractiveApproval(t *testing.T) {
	isolate(t)
	tests := []struct {
		answer string
		ran    bool
		scope  string
	}{
		{"y", true, "approved #1 shell"},
		{"a", true, "approved for the session #1 shell"},
		{"n", false, "denied #1 shell: the user said no"},
	}
	for _, tt := range tests {
		t.Run(tt.answer, func(t *testing.T) {
			ws, dir := t.TempDir(), t.TempDir()
			s := startInteractive(t, "run", "--allow-shell", "--provider", "scripted", "--script", writeScript(t, shellScript), "--store", dir, "--workspace", ws, "go")
			s.err.waitFor(t, "run shell `echo from-shell > out.txt && cat out.txt`? [y]es/[n]o/[a]lways allow >out.txt, cat, echo ")
			io.WriteString(s.in, "maybe\n")
			s.err.waitFor(t, "please answer y, n or a")
			io.WriteString(s.in, tt.answer+"\n")
			if code := s.wait(t); code != 0 {
				t.Fatalf("exit %d\n%s", code, s.err.String())
			}
			if _, err := os.Stat(filepath.Join(ws, "out.txt")); (err == nil) != tt.ran {
				t.Errorf("shell ran: %v, want %v", err == nil, tt.ran)
			}
			id := strings.Fields(s.err.String()[strings.LastIndex(s.err.String(), "session "):])[1]
			_, log, _ := cli(t, "", "log", "--store", dir, id)
			if !strings.Contains(log, tt.scope) {
				t.Errorf("transcript does not say %q:\n%s", tt.scope, log)
			}
		})
	}
}

// TestApprovalWhenStdinEnds: stdin ending at a terminal (Ctrl-D) while an
// approval waits denies the call, and the run goes on to its end instead
// of waiting for a line that can no longer come.
func TestApprovalWhenStdinEnds(t *testing.T) {
	isolate(t)
	ws := t.TempDir()
	s := startInteractive(t, "run", "--allow-shell", "--provider", "scripted", "--script", writeScript(t, shellScript), "--store", t.TempDir(), "--workspace", ws, "go")
	s.err.waitFor(t, "[y]es/[n]o/[a]lways allow")
	s.endInput(t)
	if !strings.Contains(s.out.String(), "denied #1 shell: stdin was closed") {
		t.Errorf("stdout does not say why the call was denied:\n%s", s.out.String())
	}
	if _, err := os.Stat(filepath.Join(ws, "out.txt")); err == nil {
		t.Error("the shell ran without approval")
	}
}

func TestTypedLinesSteer(t *testing.T) {
	isolate(t)
	dir := t.TempDir()
	script := writeScript(t, `{"replies": [
	  {"text": "Looking.", "tool_calls": [{"id": "c1", "name": "list_files", "arguments": {}}]},
	  {"text": "Looking again.", "first_delay": "50ms", "tool_calls": [{"id": "c2", "name": "list_files", "arguments": {}}]},
	  {"text": "Done, with the notes."}
	]}`)
	s := startInteractive(t, "run", "--provider", "scripted", "--script", script, "--store", dir, "--workspace", t.TempDir(), "look")
	s.out.waitFor(t, "→ #1 list_files")
	io.WriteString(s.in, "also mention the notes\n")
	if code := s.wait(t); code != 0 {
		t.Fatalf("exit %d\n%s", code, s.err.String())
	}
	if !strings.Contains(s.out.String(), "↪ also mention the notes") {
		t.Errorf("steering not shown:\n%s", s.out.String())
	}
	id := strings.Fields(s.err.String()[strings.LastIndex(s.err.String(), "session "):])[1]
	_, log, _ := cli(t, "", "log", "--store", dir, id)
	if strings.Count(log, "steer: also mention the notes") != 1 {
		t.Errorf("steering not in the transcript exactly once:\n%s", log)
	}
}

// TestCtrlC: the first Ctrl-C during a model call that hangs stops the
// run at once, as "stopped" with exit 130, not as a failure.
func TestCtrlC(t *testing.T) {
	isolate(t)
	dir := t.TempDir()
	script := writeScript(t, `{"replies": [{"text": "Working on it.", "fail": {"hang": true, "after": 1}}]}`)
	s := startInteractive(t, "run", "--provider", "scripted", "--script", script, "--store", dir, "--workspace", t.TempDir(), "hang")
	s.out.waitFor(t, "Working")
	s.interrupts <- os.Interrupt
	if code := s.wait(t); code != exitStopped {
		t.Errorf("exit %d, want %d", code, exitStopped)
	}
	if !strings.Contains(s.err.String(), "baton: stopping\n") || strings.Contains(s.err.String(), "aborted") {
		t.Errorf("stderr:\n%s", s.err.String())
	}
	if !strings.Contains(s.out.String(), "── stopped\n") {
		t.Errorf("stdout:\n%s", s.out.String())
	}
}

// TestCtrlCLetsRunningToolsFinish: the first Ctrl-C while a tool runs
// lets it finish and calls the model no more.
func TestCtrlCLetsRunningToolsFinish(t *testing.T) {
	isolate(t)
	ws := t.TempDir()
	script := writeScript(t, `{"replies": [
	  {"text": "Waiting.", "tool_calls": [{"id": "c1", "name": "shell", "arguments": {"command": "touch started.txt && sleep 1 && echo finished > done.txt"}}]},
	  {"text": "This reply must never be asked for."}
	]}`)
	s := startInteractive(t, "run", "--yes", "--allow-shell", "--provider", "scripted", "--script", script, "--store", t.TempDir(), "--workspace", ws, "wait")
	for deadline := time.Now().Add(20 * time.Second); ; time.Sleep(10 * time.Millisecond) {
		if _, err := os.Stat(filepath.Join(ws, "started.txt")); err == nil {
			break
		}
		if time.Now().After(deadline) {
			t.Fatalf("the tool never started:\n%s", s.out.String())
		}
	}
	s.interrupts <- os.Interrupt
	if code := s.wait(t); code != exitStopped {
		t.Errorf("exit %d, want %d\n%s", code, exitStopped, s.err.String())
	}
	if !strings.Contains(s.err.String(), "stopping after the running tools (Ctrl-C again to stop now)") {
		t.Errorf("stderr:\n%s", s.err.String())
	}
	if _, err := os.Stat(filepath.Join(ws, "done.txt")); err != nil {
		t.Errorf("the running tool did not finish: %v", err)
	}
	if out := s.out.String(); strings.Contains(out, "never") || !strings.Contains(out, "── stopped") {
		t.Errorf("stdout:\n%s", out)
	}
}

func TestReplayDivergence(t *testing.T) {
	isolate(t)
	dir := t.TempDir()
	fixedSession(t, dir, "good")
	st, err := store.Open(dir)
	if err != nil {
		t.Fatal(err)
	}
	recs, err := st.Records(context.Background(), "good")
	if err != nil {
		t.Fatal(err)
	}
	recs[6].Effects = "publish tool_result#99"
	if _, err := st.Append(context.Background(), "bad", recs...); err != nil {
		t.Fatal(err)
	}
	code, _, stderr := cli(t, "", "replay", "--store", dir, "bad")
	if code != exitFailure || !strings.Contains(stderr, `baton: replay bad: cadence: nondeterministic step 7: recorded "publish tool_result#99", replayed "`) {
		t.Errorf("exit %d, stderr %q", code, stderr)
	}
	code, stdout, _ := cli(t, "", "replay", "--json", "--store", dir, "bad")
	if code != exitFailure || !strings.Contains(stdout, `"verified":false,"divergence":{"Step":7,"Recorded":"publish tool_result#99"`) {
		t.Errorf("json: exit %d %q", code, stdout)
	}
	_, err = verifySession(context.Background(), st, replayRules(), "bad")
	var d *cadence.Divergence
	if !errors.As(err, &d) || d.Step != 7 {
		t.Errorf("verifySession: %v", err)
	}
}

// The commands baton prints for looking at a session must work as
// printed: with --store given, they name that store.
func TestPrintedCommandsNameTheStore(t *testing.T) {
	isolate(t)
	dir := t.TempDir()
	script := writeScript(t, `{"replies": [{"text": "Hi."}]}`)
	code, _, stderr := cli(t, "", "run", "--provider", "scripted", "--script", script, "--store", dir, "--workspace", t.TempDir(), "hi")
	if code != 0 {
		t.Fatalf("run: exit %d %s", code, stderr)
	}
	hint, ok := strings.CutPrefix(stderr[strings.Index(stderr, "(")+1:], "baton ")
	if !ok {
		t.Fatalf("no command in %q", stderr)
	}
	if code, _, errOut := cli(t, "", strings.Fields(strings.TrimSuffix(strings.TrimSpace(hint), ")"))...); code != 0 {
		t.Errorf("printed command %q: exit %d %s", hint, code, errOut)
	}
	id := strings.Fields(stderr)[1]
	code, stdout, stderr := cli(t, "", "fork", "--store", dir, id, "1")
	if code != 0 {
		t.Fatalf("fork: exit %d %s", code, stderr)
	}
	for _, l := range strings.Split(strings.TrimSpace(stdout), "\n")[1:] {
		args := strings.Fields(strings.TrimPrefix(strings.TrimSpace(l), "baton "))
		if args[0] != "log" {
			continue
		}
		if code, _, errOut := cli(t, "", args...); code != 0 {
			t.Errorf("printed command %q: exit %d %s", l, code, errOut)
		}
	}
}

// A session run under a model whose tokens tiktoken counts replays byte
// for byte: the replay runs under the config the session recorded, not
// the command line's defaults.
func TestReplayOfASessionRunWithAKnownModel(t *testing.T) {
	isolate(t)
	dir := t.TempDir()
	script := writeScript(t, `{"replies": [
	  {"text": "Looking.", "tool_calls": [{"id": "c1", "name": "list_files", "arguments": {}}]},
	  {"text": "The workspace holds nothing of interest, which is itself a finding worth reporting."}
	]}`)
	code, _, stderr := cli(t, "", "run", "--provider", "scripted", "--model", "gpt-4o", "--script", script, "--store", dir, "--workspace", t.TempDir(), "what is here?")
	if code != 0 {
		t.Fatalf("run: exit %d %s", code, stderr)
	}
	id := strings.Fields(stderr)[1]
	code, stdout, stderr := cli(t, "", "replay", "--store", dir, id)
	if code != 0 || !strings.HasPrefix(stdout, "replay verified:") {
		t.Fatalf("replay: exit %d %q %s", code, stdout, stderr)
	}
}

// TestRunContextWindow checks --context-window reaches the run's config:
// four file reads overflow a 2,000-token window and the history is
// compacted before the last model call, which the default window (128000)
// never does.
func TestRunContextWindow(t *testing.T) {
	isolate(t)
	ws := t.TempDir()
	var replies []string
	for i := range 8 {
		name := fmt.Sprintf("note%d.txt", i)
		if err := os.WriteFile(filepath.Join(ws, name), []byte(strings.Repeat(fmt.Sprintf("signal %d state replay ", i), 36)), 0o644); err != nil {
			t.Fatal(err)
		}
		replies = append(replies, fmt.Sprintf(`{"text": "Reading.", "tool_calls": [{"id": "c%d", "name": "read_file", "arguments": {"path": %q}}]}`, i, name))
	}
	replies = append(replies, `{"text": "Summary: eight notes of repeated words."}`, `{"text": "Done."}`)
	script := writeScript(t, `{"replies": [`+strings.Join(replies, ",")+`]}`)
	for _, tt := range []struct {
		window    string
		compacted bool
	}{{"2000", true}, {"128000", false}} {
		code, stdout, stderr := cli(t, "", "run", "--provider", "scripted", "--script", script, "--store", t.TempDir(), "--workspace", ws, "--context-window", tt.window, "read the notes")
		if got := strings.Contains(stdout, "·· compacted history"); got != tt.compacted || code != exitOK {
			t.Errorf("--context-window %s: exit %d, compacted %v, want %v\n%s%s", tt.window, code, got, tt.compacted, stdout, stderr)
		}
	}
}
