package main

import (
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strings"
	"testing"
)

var sessionLine = regexp.MustCompile(`baton demo: session ([a-z]+-[a-z]+-[0-9a-f]{4}),`)

func checkDemo(t *testing.T, stdout string) string {
	t.Helper()
	for _, want := range []string{
		"→ #1 list_files {}",
		"← #1 list_files: notes.txt",
		"← #2 write_file: wrote 72 bytes to poem.txt",
		"← #3 read_file: Signals fold to state,",
		"── done: 4 model calls, 3 tool calls",
		"replay verified: 8 steps, byte for byte",
	} {
		if !strings.Contains(stdout, want) {
			t.Errorf("demo output does not say %q:\n%s", want, stdout)
		}
	}
	m := sessionLine.FindStringSubmatch(stdout)
	if m == nil {
		t.Fatalf("no readable session id in:\n%s", stdout)
	}
	if !strings.Contains(stdout, "  baton log "+m[1]) {
		t.Errorf("no follow-up command in:\n%s", stdout)
	}
	return m[1]
}

func TestDemoInProcess(t *testing.T) {
	home := isolate(t)
	code, stdout, stderr := cli(t, "", "demo")
	if code != 0 {
		t.Fatalf("exit %d: %s", code, stderr)
	}
	id := checkDemo(t, stdout)
	if _, err := os.Stat(filepath.Join(home, ".baton", "store", "logs", id+".log")); err != nil {
		t.Errorf("demo did not use the default store: %v", err)
	}
	code, log, _ := cli(t, "", "log", id)
	if code != 0 || !strings.Contains(log, "assistant: Done. poem.txt") {
		t.Errorf("log after demo: exit %d\n%s", code, log)
	}
	code, stdout, _ = cli(t, "", "demo", "--json")
	if code != 0 || !strings.Contains(stdout, `"verified":true`) || !strings.Contains(stdout, `"kind":"text_delta"`) {
		t.Errorf("demo --json: exit %d\n%s", code, stdout)
	}
}

// TestDemoCommand runs the README's demo command, go run ./cmd/baton demo
// (as go run . demo from this folder), with HOME, XDG and BATON_HOME in a
// temporary folder, and checks its session landed in the default store.
func TestDemoCommand(t *testing.T) {
	skipShort(t, "builds the command")
	// Keep the build and module caches, which live under the real HOME.
	goenv, err := exec.Command("go", "env", "GOCACHE", "GOMODCACHE", "GOPATH").Output()
	if err != nil {
		t.Fatalf("go env: %v", err)
	}
	caches := strings.Fields(string(goenv))
	home := isolate(t)
	tmp := t.TempDir()
	cmd := exec.Command("go", "run", ".", "demo")
	cmd.Env = append(os.Environ(), "GOCACHE="+caches[0], "GOMODCACHE="+caches[1], "GOPATH="+caches[2], "TMPDIR="+tmp)
	out, err := cmd.Output()
	if err != nil {
		var stderr []byte
		if ee, ok := err.(*exec.ExitError); ok {
			stderr = ee.Stderr
		}
		t.Fatalf("go run . demo: %v\n%s%s", err, out, stderr)
	}
	id := checkDemo(t, string(out))
	if _, err := os.Stat(filepath.Join(home, ".baton", "store", "logs", id+".log")); err != nil {
		t.Errorf("session not in the default store under HOME: %v", err)
	}
	if code, stdout, stderr := cli(t, "", "replay", id); code != 0 || !strings.Contains(stdout, "replay verified") {
		t.Errorf("replay after the demo: exit %d %s %s", code, stdout, stderr)
	}
	if entries, _ := filepath.Glob(filepath.Join(tmp, "baton-demo-*")); len(entries) != 0 {
		t.Errorf("demo left its workspace behind: %v", entries)
	}
}

// TestDemoCtrlC: Ctrl-C stops the demo as it stops a run: exit 130, the
// printer's "stopped" line and no error after it.
func TestDemoCtrlC(t *testing.T) {
	isolate(t)
	s := startInteractive(t, "demo", "--store", t.TempDir())
	s.out.waitFor(t, "→ #1 list_files")
	s.interrupts <- os.Interrupt
	if code := s.wait(t); code != exitStopped {
		t.Errorf("exit %d, want %d\n%s", code, exitStopped, s.err.String())
	}
	if strings.Contains(s.err.String(), "aborted") {
		t.Errorf("stderr:\n%s", s.err.String())
	}
	if !strings.Contains(s.out.String(), "── stopped\n") {
		t.Errorf("stdout:\n%s", s.out.String())
	}
}
