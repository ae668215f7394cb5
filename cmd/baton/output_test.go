package main

import (
	"bytes"
	"context"
	"strings"
	"syscall"
	"testing"
)

// fullWriter is stdout on a full disk: every write fails.
type fullWriter struct{}

func (fullWriter) Write([]byte) (int, error) { return 0, syscall.ENOSPC }

// TestOutputWriteFailure: a command whose output could not be written
// (a full disk, a closed stdout) fails with exit 1 and says why, rather
// than exiting 0 with its output lost.
func TestOutputWriteFailure(t *testing.T) {
	isolate(t)
	dir := t.TempDir()
	fixedSession(t, dir, "s1")
	tests := []struct {
		name string
		args []string
	}{
		{"sessions", []string{"sessions", "--store", dir}},
		{"sessions as JSON", []string{"sessions", "--store", dir, "--json"}},
		{"log", []string{"log", "--store", dir, "s1"}},
		{"log of the graph", []string{"log", "--store", dir, "--graph", "s1"}},
		{"replay", []string{"replay", "--store", dir, "s1"}},
		{"fork", []string{"fork", "--store", dir, "s1", "2"}},
		{"export", []string{"export", "--store", dir, "s1"}},
		{"help", []string{"--help"}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			var errb bytes.Buffer
			code := run(context.Background(), tt.args, strings.NewReader(""), fullWriter{}, &errb)
			if code != exitFailure {
				t.Errorf("exit %d, want %d: output that was never written must not pass for success; stderr:\n%s", code, exitFailure, errb.String())
			}
			if !strings.Contains(errb.String(), "no space left on device") {
				t.Errorf("stderr does not name the write failure:\n%s", errb.String())
			}
		})
	}
}
