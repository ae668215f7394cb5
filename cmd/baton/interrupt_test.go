package main

import (
	"context"
	"io"
	"os"
	"strings"
	"testing"
	"time"
)

// TestCtrlCStopsImportFromStdin: Ctrl-C stops 'baton import' waiting on
// stdin (typed without a file at a terminal), with exit 130, as it stops
// a run; the handler baton installs for runs must not swallow it.
func TestCtrlCStopsImportFromStdin(t *testing.T) {
	isolate(t)
	r, w := io.Pipe()
	t.Cleanup(func() { w.Close() })
	interrupts := make(chan os.Signal, 2)
	out, errb := newSyncBuffer(), newSyncBuffer()
	a := &app{stdin: r, stdout: out, stderr: errb, interrupts: interrupts}
	code := make(chan int, 1)
	go func() { code <- a.main(context.Background(), []string{"import", "--store", t.TempDir()}) }()
	interrupts <- os.Interrupt
	select {
	case c := <-code:
		if c != exitStopped {
			t.Errorf("exit %d, want %d; stderr:\n%s", c, exitStopped, errb.String())
		}
		if !strings.Contains(errb.String(), "baton: stopping\n") {
			t.Errorf("stderr does not say it stops:\n%s", errb.String())
		}
	case <-time.After(10 * time.Second):
		w.Close()
		<-code
		t.Fatalf("import still waits on stdin 10s after Ctrl-C")
	}
}
