package mcp

import (
	"fmt"
	"io"
	"strconv"
	"strings"
	"testing"
	"testing/iotest"

	"github.com/google/go-cmp/cmp"
	"pgregory.net/rapid"
)

// TestMessageLines: message lines pass whole, however long and however
// the reads fall; the other lines are skipped and named. A message a
// server indents across lines passes whole too, as the SDK's decoder
// takes it.
func TestMessageLines(t *testing.T) {
	long := `{"jsonrpc":"2.0","x":"` + strings.Repeat("y", 10000) + `"}` + "\n"
	longLog := `{"level":"info","x":"` + strings.Repeat("y", maxLogObject) + `"}` + "\n"
	tests := []struct {
		name, in, out string
		skipped       []string
	}{
		{name: "messages", in: "{\"jsonrpc\":\"2.0\",\"a\":1}\n{\"b\":2,\"jsonrpc\":\"2.0\"}\r\n", out: "{\"jsonrpc\":\"2.0\",\"a\":1}\n{\"b\":2,\"jsonrpc\":\"2.0\"}\r\n"},
		{name: "banner and debug", in: "server 1.0 ready\n{\"jsonrpc\":\"2.0\"}\nDEBUG: x\n{\"jsonrpc\":\"2.0\",\"b\":2}\n", out: "{\"jsonrpc\":\"2.0\"}\n{\"jsonrpc\":\"2.0\",\"b\":2}\n",
			skipped: []string{"server 1.0 ready", "DEBUG: x"}},
		{name: "log lines in JSON", in: "{\"level\":30,\"msg\":\"up\"}\n {\"msg\":\"a \\\"jsonrpc\\\" request\"} \n{\"jsonrpc\":\"2.0\"}\n{}\n{\"msg\":\"}{\"}\n",
			out: "{\"jsonrpc\":\"2.0\"}\n", skipped: []string{"{\"level\":30,\"msg\":\"up\"}", " {\"msg\":\"a \\\"jsonrpc\\\" request\"}", "{}", "{\"msg\":\"}{\"}"}},
		{name: "bracketed log line", in: "[INFO] up\n[{\"a\":1}]\n[ {\"b\":2}]\n", out: "[{\"a\":1}]\n[ {\"b\":2}]\n", skipped: []string{"[INFO] up"}},
		{name: "blank lines", in: "\n  \n\t{\"jsonrpc\":\"2.0\"}\n\n", out: "\t{\"jsonrpc\":\"2.0\"}\n"},
		{name: "lone bracket", in: "[\n{\"jsonrpc\":\"2.0\"}\n", out: "{\"jsonrpc\":\"2.0\"}\n", skipped: []string{"["}},
		{name: "long message", in: long + "noise\n" + long, out: long + long, skipped: []string{"noise"}},
		{name: "log line too long to look at whole", in: longLog, out: longLog},
		{name: "long noise", in: strings.Repeat("z", 10000) + "\n{\"jsonrpc\":\"2.0\"}\n", out: "{\"jsonrpc\":\"2.0\"}\n", skipped: []string{strings.Repeat("z", maxSkipped)}},
		{name: "message across lines", in: "{\n  \"a\": \"}\\\"{\",\n  \"b\": [\n    1\n  ]\n}\nnoise\n[{\"c\":\n2}]\n{\"jsonrpc\":\"2.0\"}\n",
			out: "{\n  \"a\": \"}\\\"{\",\n  \"b\": [\n    1\n  ]\n}\n[{\"c\":\n2}]\n{\"jsonrpc\":\"2.0\"}\n", skipped: []string{"noise"}},
		{name: "no newline at the end", in: "{\"jsonrpc\":\"2.0\"}", out: "{\"jsonrpc\":\"2.0\"}"},
		{name: "open object at the end", in: "{\"a\":", out: "{\"a\":"},
		{name: "noise at the end", in: "{\"jsonrpc\":\"2.0\"}\nbye", out: "{\"jsonrpc\":\"2.0\"}\n", skipped: []string{"bye"}},
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

// TestMessageLinesProperty: whatever lines a server interleaves with its
// messages, the messages pass on whole and in order, and every other
// line, a log line in JSON among them, is named once.
func TestMessageLinesProperty(t *testing.T) {
	rapid.Check(t, func(t *rapid.T) {
		n := rapid.IntRange(0, 20).Draw(t, "lines")
		var in, want strings.Builder
		var wantSkipped []string
		for i := range n {
			var noise string
			switch rapid.IntRange(0, 2).Draw(t, fmt.Sprint("kind ", i)) {
			case 0:
				line := `{"jsonrpc":"2.0","v":` + strconv.Quote(rapid.String().Draw(t, fmt.Sprint("text ", i))) + "}\n"
				in.WriteString(line)
				want.WriteString(line)
				continue
			case 1:
				// A log line in JSON, which names no jsonrpc member.
				noise = `{"msg":` + strconv.Quote(rapid.StringMatching(`[^\n"]{0,300}`).Draw(t, fmt.Sprint("log ", i))) + "}"
			default:
				noise = rapid.StringMatching(`[^\s{\[][^\n]{0,300}`).Draw(t, fmt.Sprint("noise ", i))
			}
			in.WriteString(noise + "\n")
			wantSkipped = append(wantSkipped, string(trimLine([]byte(noise[:min(len(noise), maxSkipped)]))))
		}
		var r io.Reader = strings.NewReader(in.String())
		if rapid.Bool().Draw(t, "byte at a time") {
			r = iotest.OneByteReader(r)
		}
		var skipped []string
		out, err := io.ReadAll(newMessageLines(r, func(s string) { skipped = append(skipped, s) }))
		if err != nil {
			t.Fatal(err)
		}
		if diff := cmp.Diff(want.String(), string(out)); diff != "" {
			t.Fatalf("passed on mismatch (-want +got):\n%s", diff)
		}
		if diff := cmp.Diff(wantSkipped, skipped); diff != "" {
			t.Fatalf("skipped mismatch (-want +got):\n%s", diff)
		}
	})
}
