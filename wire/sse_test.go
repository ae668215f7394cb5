package wire

import (
	"bytes"
	"errors"
	"strings"
	"testing"
)

// parseSSE is a minimal SSE reader per the WHATWG rules: lines end at
// \n, \r\n or \r; "data:" lines join with \n; a blank line ends an event.
func parseSSE(s string) (id, data string, n int) {
	s = strings.ReplaceAll(strings.ReplaceAll(s, "\r\n", "\n"), "\r", "\n")
	var lines []string
	for _, line := range strings.Split(s, "\n") {
		switch {
		case line == "":
			if lines != nil {
				n++
				data = strings.Join(lines, "\n")
				lines = nil
			}
		case strings.HasPrefix(line, "id: "):
			id = line[4:]
		case strings.HasPrefix(line, "data: "):
			lines = append(lines, line[6:])
		}
	}
	return id, data, n
}

func FuzzSSEEncoder(f *testing.F) {
	f.Add("7", []byte(`{"type":"RUN_STARTED"}`))
	f.Add("7.3", []byte("two\nlines\r\nand\rmore"))
	f.Add("", []byte(""))
	f.Add("bad\nid", []byte("x"))
	f.Fuzz(func(t *testing.T, id string, data []byte) {
		var buf bytes.Buffer
		err := NewSSEWriter(&buf).WriteEvent(id, "", data)
		if strings.ContainsAny(id, "\r\n\x00") {
			if !errors.Is(err, ErrBadSSEField) {
				t.Fatalf("id %q: got %v, want ErrBadSSEField", id, err)
			}
			return
		}
		if err != nil {
			t.Fatal(err)
		}
		gotID, gotData, n := parseSSE(buf.String())
		want := strings.ReplaceAll(strings.ReplaceAll(string(data), "\r\n", "\n"), "\r", "\n")
		if n != 1 || gotID != id || gotData != want {
			t.Fatalf("round trip: %d events, id %q data %q; want 1, %q, %q", n, gotID, gotData, id, want)
		}
	})
}

func TestSSEWriterRejectsBadFields(t *testing.T) {
	w := NewSSEWriter(&bytes.Buffer{})
	for _, err := range []error{
		w.WriteEvent("1\n", "", nil),
		w.WriteEvent("1", "a\rb", nil),
		w.WriteComment("x\ny"),
	} {
		if !errors.Is(err, ErrBadSSEField) {
			t.Errorf("got %v, want ErrBadSSEField", err)
		}
	}
}

type failingWriter struct{}

func (failingWriter) Write([]byte) (int, error) { return 0, errors.New("gone") }

func TestWritersReportWriteErrors(t *testing.T) {
	if err := NewSSEWriter(failingWriter{}).WriteEvent("1", "", []byte("x")); err == nil || !strings.Contains(err.Error(), "wire: write sse") {
		t.Errorf("sse: %v", err)
	}
	if err := NewNDJSONWriter(failingWriter{}).WriteEvent(ev(1, 0, "run_started")); err == nil || !strings.Contains(err.Error(), "wire: write ndjson") {
		t.Errorf("ndjson: %v", err)
	}
}
