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

// TestFileToolsOfAFIFODoNotHang: a FIFO in the workspace (mkfifo pipe)
// must not block a file tool for ever, past its call's context: opened
// blocking, O_RDONLY waits for a writer and O_WRONLY for a reader, which
// hung the call, and the run, for good.
func TestFileToolsOfAFIFODoNotHang(t *testing.T) {
	for _, tc := range []struct{ tool, args string }{
		{"read_file", `{"path":"pipe"}`},
		{"list_files", `{"path":"pipe"}`},
		{"write_file", `{"path":"pipe","content":"x"}`},
	} {
		t.Run(tc.tool, func(t *testing.T) {
			root := t.TempDir()
			if err := syscall.Mkfifo(filepath.Join(root, "pipe"), 0o600); err != nil {
				t.Fatal("mkfifo:", err)
			}
			_, tools := open(t, Options{Root: root})
			ctx, cancel := context.WithTimeout(context.Background(), 100*time.Millisecond)
			defer cancel()
			done := make(chan error, 1)
			go func() {
				_, err := tools[tc.tool].Call(ctx, []byte(tc.args))
				done <- err
			}()
			select {
			case <-done:
			case <-time.After(5 * time.Second):
				// Open the other end so the blocked open returns before
				// goleak looks.
				flag := os.O_WRONLY
				if tc.tool == "write_file" {
					flag = os.O_RDONLY
				}
				if f, err := os.OpenFile(filepath.Join(root, "pipe"), flag, 0); err == nil {
					f.Close()
				}
				<-done
				t.Fatalf("%s of a FIFO still blocked 5s after its context ended", tc.tool)
			}
		})
	}
}
