package sse

import (
	"context"
	"errors"
	"io"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
)

// chunks is a stream that arrives in the given pieces, one a read.
type chunks struct{ parts []string }

func (c *chunks) Read(p []byte) (int, error) {
	if len(c.parts) == 0 {
		return 0, io.EOF
	}
	n := copy(p, c.parts[0])
	c.parts[0] = c.parts[0][n:]
	if c.parts[0] == "" {
		c.parts = c.parts[1:]
	}
	return n, nil
}

// bytewise splits s into one piece a byte.
func bytewise(s string) []string {
	var parts []string
	for i := range len(s) {
		parts = append(parts, s[i:i+1])
	}
	return parts
}

// collect reads r's events until it fails; io.EOF is no failure.
func collect(ctx context.Context, r *Reader) ([]Event, error) {
	var got []Event
	for {
		e, err := r.Next(ctx)
		if err == io.EOF {
			return got, nil
		}
		if err != nil {
			return got, err
		}
		got = append(got, e)
	}
}

func data(s string) Event { return Event{Data: s, HasData: true} }

func TestReader(t *testing.T) {
	tests := []struct {
		name  string
		parts []string
		max   int
		want  []Event
		err   string // the error's text, "" for a clean end
	}{
		{name: "one event", parts: []string{"data: a\n\n"}, want: []Event{data("a")}},
		{name: "named", parts: []string{"event: message_start\ndata: {}\n\n"}, want: []Event{{Type: "message_start", Data: "{}", HasData: true}}},
		{name: "a byte a read", parts: bytewise("event: x\r\ndata: a\r\n\r\ndata: b\r\r"), want: []Event{{Type: "x", Data: "a", HasData: true}, data("b")}},
		{name: "lines split across reads", parts: []string{"da", "ta: a", "\n", "\ndata: b\n", "\n"}, want: []Event{data("a"), data("b")}},
		{name: "CRLF", parts: []string{"data: a\r\n\r\ndata: b\r\n\r\n"}, want: []Event{data("a"), data("b")}},
		{name: "lone CR", parts: []string{"event: x\rdata: a\r\rdata: b\r\r"}, want: []Event{{Type: "x", Data: "a", HasData: true}, data("b")}},
		{name: "CRLF split between reads", parts: []string{"data: a\r", "\n\r", "\n"}, want: []Event{data("a")}},
		{name: "LF CR is two line ends", parts: []string{"data: a\n\r"}, want: []Event{data("a")}},
		{name: "byte order mark", parts: []string{"\ufeffdata: a\n\n"}, want: []Event{data("a")}},
		{name: "byte order mark across reads", parts: bytewise("\ufeffdata: a\n\n"), want: []Event{data("a")}},
		{name: "only the first mark goes", parts: []string{"\ufeff\ufeffdata: a\n\n"}, want: []Event{{Fields: []Field{{Name: "\ufeffdata", Value: "a"}}}}},
		{name: "a mark later is text", parts: []string{"data: a\n\n\ufeffdata: b\n\n"}, want: []Event{data("a"), {Fields: []Field{{Name: "\ufeffdata", Value: "b"}}}}},
		{name: "a stream shorter than a mark", parts: []string{"\n"}},
		{name: "comments", parts: []string{": keep-alive\ndata: a\n:\n: more\n\n: ping\n\n"}, want: []Event{data("a")}},
		{name: "multi-line data", parts: []string{"data: a\ndata:\ndata: b\n\n"}, want: []Event{data("a\n\nb")}},
		{name: "a field without colon", parts: []string{"data\n\ndata\ndata\n\nevent\ndata: a\n\n"}, want: []Event{data(""), data("\n"), data("a")}},
		{name: "one leading space stripped", parts: []string{"event:  x\ndata:  a \ndata:b\n\n"}, want: []Event{{Type: " x", Data: " a \nb", HasData: true}}},
		{name: "colons after the first are the value's", parts: []string{"data: a: b:c\n\n"}, want: []Event{data("a: b:c")}},
		{name: "id and retry ignored", parts: []string{"id: 7\nretry: 1000\ndata: a\nid\n\nid: 8\n\n"}, want: []Event{data("a")}},
		{name: "the last event field wins", parts: []string{"event: error\nevent: message\ndata: a\n\nevent: x\nevent:\ndata: b\n\n"}, want: []Event{{Type: "message", Data: "a", HasData: true}, data("b")}},
		{name: "field names are case-sensitive", parts: []string{"Data: a\nEVENT: x\ndata: b\n\n"}, want: []Event{{Data: "b", HasData: true, Fields: []Field{{Name: "Data", Value: "a"}, {Name: "EVENT", Value: "x"}}}}},
		{name: "no data, no event", parts: []string{"event: error\n\ndata: a\n\n"}, want: []Event{data("a")}},
		{name: "other fields", parts: []string{"error: {\"code\":500}\n\n"}, want: []Event{{Fields: []Field{{Name: "error", Value: "{\"code\":500}"}}}}},
		{name: "ends mid-event", parts: []string{"data: a\n\nevent: x\ndata: b\n"}, want: []Event{data("a")}},
		{name: "ends mid-line", parts: []string{"data: a\n\ndata: b"}, want: []Event{data("a")}},
		{name: "ends after a lone CR", parts: []string{"data: a\r\r"}, want: []Event{data("a")}},
		{name: "an endless line", parts: []string{"data: a\n\ndata: ", strings.Repeat("x", 40), strings.Repeat("x", 40)}, max: 64, want: []Event{data("a")},
			err: "sse: line too long: more than 64 bytes"},
		{name: "a line at the bound", parts: []string{"data: " + strings.Repeat("x", 58) + "\n\n"}, max: 64, want: []Event{data(strings.Repeat("x", 58))}},
		{name: "an endless event", parts: []string{strings.Repeat("data: xxxxxxxxxx\n", 10)}, max: 64,
			err: "sse: event too long: more than 64 bytes"},
		{name: "endless comments are no event", parts: []string{strings.Repeat(": xxxxxxxxxx\n", 10) + "data: a\n\n"}, max: 64, want: []Event{data("a")}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			max := tt.max
			if max == 0 {
				max = Max
			}
			got, err := collect(context.Background(), NewReader(&chunks{parts: tt.parts}, max))
			if diff := cmp.Diff(tt.want, got); diff != "" {
				t.Errorf("events mismatch (-want +got):\n%s", diff)
			}
			var gotErr string
			if err != nil {
				gotErr = err.Error()
			}
			if diff := cmp.Diff(tt.err, gotErr); diff != "" {
				t.Errorf("error mismatch (-want +got):\n%s", diff)
			}
			if tt.err != "" && !errors.Is(err, ErrTooLong) {
				t.Errorf("error %v does not wrap ErrTooLong", err)
			}
		})
	}
}

// endless is a stream that sends one event a read for ever.
type endless struct{}

func (endless) Read(p []byte) (int, error) { return copy(p, "data: a\n\n"), nil }

// failing is a stream that breaks after what it holds.
type failing struct {
	head string
	err  error
}

func (f *failing) Read(p []byte) (int, error) {
	if f.head == "" {
		return 0, f.err
	}
	n := copy(p, f.head)
	f.head = f.head[n:]
	return n, nil
}

// silent is a stream that returns nothing, and no error, however often
// it is read.
type silent struct{}

func (silent) Read([]byte) (int, error) { return 0, nil }

func TestReaderStops(t *testing.T) {
	broken := errors.New("connection reset")
	tests := []struct {
		name string
		src  io.Reader
		want []Event
		err  error
	}{
		{"a broken stream's error as it came", &failing{head: "data: a\n\ndata: b\n", err: broken}, []Event{data("a")}, broken},
		{"a stream that returns nothing", silent{}, nil, io.ErrNoProgress},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got, err := collect(context.Background(), NewReader(tt.src, Max))
			if diff := cmp.Diff(tt.want, got); diff != "" {
				t.Errorf("events mismatch (-want +got):\n%s", diff)
			}
			if err != tt.err {
				t.Errorf("error %v, want %v", err, tt.err)
			}
		})
	}
}

// TestReaderCancelled: a cancelled context ends an endless stream at the
// next read, with the events already read passed on.
func TestReaderCancelled(t *testing.T) {
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	r := NewReader(endless{}, Max)
	var got []Event
	var err error
	for range 10 {
		var e Event
		if e, err = r.Next(ctx); err != nil {
			break
		}
		got = append(got, e)
		cancel()
	}
	if diff := cmp.Diff([]Event{data("a")}, got); diff != "" {
		t.Errorf("events mismatch (-want +got):\n%s", diff)
	}
	if !errors.Is(err, context.Canceled) {
		t.Errorf("error %v, want context.Canceled", err)
	}
}
