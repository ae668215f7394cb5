package sse

import (
	"bytes"
	"errors"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
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
		err := New(&buf).WriteEvent(id, "", data)
		if strings.ContainsAny(id, "\r\n\x00") {
			if !errors.Is(err, ErrBadField) {
				t.Fatalf("id %q: got %v, want ErrBadField", id, err)
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

func TestWriterRejectsBadFields(t *testing.T) {
	w := New(&bytes.Buffer{})
	for _, err := range []error{
		w.WriteEvent("1\n", "", nil),
		w.WriteEvent("1", "a\rb", nil),
		w.WriteComment("x\ny"),
	} {
		if !errors.Is(err, ErrBadField) {
			t.Errorf("got %v, want ErrBadField", err)
		}
	}
}

type failingWriter struct{}

func (failingWriter) Write([]byte) (int, error) { return 0, errors.New("gone") }

func TestWriterReportsWriteErrors(t *testing.T) {
	if err := New(failingWriter{}).WriteEvent("1", "", []byte("x")); err == nil || !strings.Contains(err.Error(), "sse: write") {
		t.Errorf("got %v, want an sse: write error", err)
	}
}

// flushes records what each flush sent.
type flushes struct {
	bytes.Buffer
	sent []string
}

func (f *flushes) Flush() { f.sent = append(f.sent, f.String()); f.Reset() }

func TestBatchWritesItsEventsAtOnce(t *testing.T) {
	var f flushes
	w := New(&f)
	if err := w.WriteEvent("1", "", []byte("a")); err != nil {
		t.Fatal(err)
	}
	err := w.Batch(func() error {
		if err := w.WriteEvent("", "", []byte("b")); err != nil {
			return err
		}
		return w.WriteEvent("2", "", []byte("c"))
	})
	if err != nil {
		t.Fatal(err)
	}
	bad := w.Batch(func() error {
		if err := w.WriteEvent("", "", []byte("d")); err != nil {
			return err
		}
		return w.WriteEvent("bad\nid", "", []byte("e"))
	})
	if !errors.Is(bad, ErrBadField) {
		t.Errorf("a batch with a bad id: got %v, want ErrBadField", bad)
	}
	want := []string{"id: 1\ndata: a\n\n", "data: b\n\nid: 2\ndata: c\n\n"}
	if diff := cmp.Diff(want, f.sent); diff != "" || f.Len() > 0 {
		t.Errorf("flushed mismatch (-want +got):\n%s\nunflushed: %q", diff, f.String())
	}
}
