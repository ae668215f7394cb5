package main

import (
	"io"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
)

// TestLongTypedLine: a line typed (or pasted) at the terminal longer
// than a scanner's 64 KiB does not end the input. One within
// maxTypedLine is read as any line is; a longer one is refused with a
// message, and the lines after it are read as before.
func TestLongTypedLine(t *testing.T) {
	isolate(t)
	tests := []struct {
		name, line, says string
	}{
		{"read", strings.Repeat("x", 100<<10), "please answer y, n or a"},
		{"refused", strings.Repeat("x", 1<<20+1), "baton: a typed line longer than 1 MiB was not read"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			ws := t.TempDir()
			s := startInteractive(t, "run", "--allow-shell", "--provider", "scripted", "--script", writeScript(t, shellScript), "--store", t.TempDir(), "--workspace", ws, "go")
			s.err.waitFor(t, "[y]es/[n]o/[a]lways allow")
			// The pipe holds no line: a reader that stopped would block
			// this write.
			go io.WriteString(s.in, tt.line+"\n")
			s.err.waitFor(t, tt.says)
			io.WriteString(s.in, "y\n")
			if code := s.wait(t); code != 0 {
				t.Fatalf("exit %d\n%s", code, s.err.String())
			}
			if _, err := os.Stat(filepath.Join(ws, "out.txt")); err != nil {
				t.Errorf("the approved shell did not run (%v):\n%s", err, s.out.String())
			}
		})
	}
}

// TestReadLines: lines end at "\n" or "\r\n", the last may lack its end,
// and only a line over maxTypedLine is refused, the lines around it read.
func TestReadLines(t *testing.T) {
	atBound, overBound := strings.Repeat("a", maxTypedLine), strings.Repeat("b", maxTypedLine+1)
	tests := []struct {
		name, in string
		want     []string // "!" for a refused line
	}{
		{"plain", "one\ntwo\r\n\nlast", []string{"one", "two", "", "last"}},
		{"at the bound", atBound + "\r\nnext\n", []string{atBound, "next"}},
		{"over the bound", "before\n" + overBound + "\nafter\n", []string{"before", "!", "after"}},
		{"over the bound at the end", overBound, []string{"!"}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			lines, refused := readLines(make(chan struct{}), strings.NewReader(tt.in))
			var got []string
			for open := true; open; {
				select {
				case l, ok := <-lines:
					if open = ok; ok {
						got = append(got, l)
					}
				case <-refused:
					got = append(got, "!")
				}
			}
			if diff := cmp.Diff(tt.want, got); diff != "" {
				t.Errorf("lines mismatch (-want +got):\n%s", diff)
			}
		})
	}
}
