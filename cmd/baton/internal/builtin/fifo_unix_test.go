//go:build unix

package builtin

import (
	"context"
	"os"
	"path/filepath"
	"syscall"
	"testing"
	"time"
)

// read_file of a FIFO in the workspace must not block for ever, past its
// call's context: the tool answers rather than hanging its goroutine.
func TestReadFileOfAFIFODoesNotHang(t *testing.T) {
	root := t.TempDir()
	if err := syscall.Mkfifo(filepath.Join(root, "pipe"), 0o600); err != nil {
		t.Skip("mkfifo:", err)
	}
	_, tools := open(t, Options{Root: root})
	ctx, cancel := context.WithTimeout(context.Background(), 100*time.Millisecond)
	defer cancel()
	done := make(chan error, 1)
	go func() {
		_, err := tools["read_file"].Call(ctx, []byte(`{"path":"pipe"}`))
		done <- err
	}()
	select {
	case <-done:
	case <-time.After(3 * time.Second):
		// Unblock the reader so the goroutine ends before goleak looks.
		if f, err := os.OpenFile(filepath.Join(root, "pipe"), os.O_WRONLY, 0); err == nil {
			f.Close()
		}
		<-done
		t.Fatal("read_file of a FIFO still blocked 3s after its context ended")
	}
}
