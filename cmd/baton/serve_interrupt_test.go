package main

import (
	"context"
	"os"
	"os/exec"
	"testing"
	"time"

	"github.com/batonrt/baton/store/vfs"
)

// servingApp starts baton serve with args on an app whose Ctrl-C comes
// from the channel it returns, and returns what serve's exit code and
// an exit of the process at once are reported on.
func servingApp(t *testing.T, args ...string) (interrupts chan os.Signal, stderr *syncBuffer, code, exited chan int) {
	t.Helper()
	interrupts = make(chan os.Signal, 2)
	stderr = newSyncBuffer()
	code, exited = make(chan int, 1), make(chan int, 1)
	a := &app{stdout: newSyncBuffer(), stderr: stderr, interrupts: interrupts, exitNow: func(c int) { exited <- c }}
	script := writeScript(t, `{"replies":[{"text":"hi"}]}`)
	base := []string{"serve", "--provider", "scripted", "--script", script, "--workspace", t.TempDir(), "--addr", "127.0.0.1:0"}
	go func() { code <- a.main(context.Background(), append(base, args...)) }()
	return interrupts, stderr, code, exited
}

// A Ctrl-C while serve starts (here while an MCP server it starts does
// not answer) shuts it down, as one while it serves does: exit 0.
func TestServeCtrlCWhileStarting(t *testing.T) {
	isolate(t)
	if _, err := exec.LookPath("sleep"); err != nil {
		t.Skip("no sleep to play a silent MCP server")
	}
	interrupts, stderr, code, exited := servingApp(t, "--store", t.TempDir(), "--mcp", "silent=sleep 60")
	interrupts <- os.Interrupt
	select {
	case c := <-code:
		if c != exitOK {
			t.Errorf("exit %d, want %d:\n%s", c, exitOK, stderr.String())
		}
	case c := <-exited:
		t.Errorf("exited at once with %d after one Ctrl-C, want a shutdown", c)
	case <-time.After(10 * time.Second):
		t.Fatalf("serve still starting 10s after Ctrl-C:\n%s", stderr.String())
	}
}

// While serve shuts down, a step that ignores the cancel (here opening a
// store folder another process is opening, which waits up to 30s) holds
// it; a second Ctrl-C ends it at once, exit 130.
func TestServeSecondCtrlCExits(t *testing.T) {
	isolate(t)
	dir := t.TempDir()
	fsys := vfs.OS(dir)
	if err := fsys.MkdirAll("locks"); err != nil {
		t.Fatal(err)
	}
	held, err := fsys.Lock("locks/.open")
	if err != nil {
		t.Fatal(err)
	}
	defer held.Close()
	interrupts, stderr, code, exited := servingApp(t, "--store", dir)
	t.Cleanup(func() {
		// Once the folder opens, serve finds it was asked to stop.
		held.Close()
		select {
		case <-code:
		case <-time.After(10 * time.Second):
			t.Error("serve did not end once the folder opened")
		}
	})
	interrupts <- os.Interrupt
	stderr.waitFor(t, "baton: shutting down")
	interrupts <- os.Interrupt
	select {
	case c := <-exited:
		if c != exitStopped {
			t.Errorf("exit %d, want %d", c, exitStopped)
		}
	case c := <-code:
		t.Errorf("serve returned %d before the second Ctrl-C could end it:\n%s", c, stderr.String())
	case <-time.After(10 * time.Second):
		t.Fatalf("still running 10s after the second Ctrl-C:\n%s", stderr.String())
	}
}
