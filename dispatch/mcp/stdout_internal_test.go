package mcp

import (
	"io"
	"strings"
	"testing"
	"testing/iotest"

	"github.com/google/go-cmp/cmp"
)

// TestMessageLines: message lines pass whole, however long and however
// the reads fall; the other lines are skipped and named.
func TestMessageLines(t *testing.T) {
	long := `{"x":"` + strings.Repeat("y", 10000) + `"}` + "\n"
	tests := []struct {
		name, in, out string
		skipped       []string
	}{
		{name: "messages", in: "{\"a\":1}\n{\"b\":2}\r\n", out: "{\"a\":1}\n{\"b\":2}\r\n"},
		{name: "banner and debug", in: "server 1.0 ready\n{\"a\":1}\nDEBUG: x\n{\"b\":2}\n", out: "{\"a\":1}\n{\"b\":2}\n",
			skipped: []string{"server 1.0 ready", "DEBUG: x"}},
		{name: "bracketed log line", in: "[INFO] up\n[{\"a\":1}]\n[ {\"b\":2}]\n", out: "[{\"a\":1}]\n[ {\"b\":2}]\n", skipped: []string{"[INFO] up"}},
		{name: "blank lines", in: "\n  \n\t{\"a\":1}\n\n", out: "\t{\"a\":1}\n"},
		{name: "lone bracket", in: "[\n{\"a\":1}\n", out: "{\"a\":1}\n", skipped: []string{"["}},
		{name: "long message", in: long + "noise\n" + long, out: long + long, skipped: []string{"noise"}},
		{name: "long noise", in: strings.Repeat("z", 10000) + "\n{}\n", out: "{}\n", skipped: []string{strings.Repeat("z", maxSkipped)}},
		{name: "no newline at the end", in: "{\"a\":1}", out: "{\"a\":1}"},
		{name: "noise at the end", in: "{}\nbye", out: "{}\n", skipped: []string{"bye"}},
	}
	for _, tt := range tests {
		for _, reader := range []struct {
			name string
			wrap func(io.Reader) io.Reader
		}{{"whole", func(r io.Reader) io.Reader { return r }}, {"byte at a time", iotest.OneByteReader}} {
			t.Run(tt.name+"/"+reader.name, func(t *testing.T) {
				var skipped []string
				m := newMessageLines(reader.wrap(strings.NewReader(tt.in)), func(s string) { skipped = append(skipped, s) })
				out, err := io.ReadAll(reader.wrap(m))
				if err != nil {
					t.Fatal(err)
				}
				if diff := cmp.Diff(tt.out, string(out)); diff != "" {
					t.Errorf("passed on mismatch (-want +got):\n%s", diff)
				}
				if diff := cmp.Diff(tt.skipped, skipped); diff != "" {
					t.Errorf("skipped mismatch (-want +got):\n%s", diff)
				}
			})
		}
	}
}
