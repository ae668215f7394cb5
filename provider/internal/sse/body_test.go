package sse

import (
	"context"
	"errors"
	"io"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
)

// closer counts the closes of the stream it reads.
type closer struct {
	io.Reader
	closed int
}

func (c *closer) Close() error { c.closed++; return nil }

func TestBody(t *testing.T) {
	stop := errors.New("demo: the server failed")
	tests := []struct {
		name   string
		in     string
		filter Filter
		want   string
		err    error // what the body ends with, io.EOF for a clean end
	}{
		{name: "the plainest form", in: "\ufeff: hi\r\nid: 1\revent:message_start\ndata:{}\n\ndata\n\ndata: a\ndata:  b\n\n", want: "event: message_start\ndata: {}\n\ndata: \n\ndata: a\ndata:  b\n\n", err: io.EOF},
		{name: "no data, not passed on", in: "event: error\n\nerror: x\n\ndata: a\n\n", want: "data: a\n\n", err: io.EOF},
		{name: "a cut event, not passed on", in: "data: a\n\ndata: b\n", want: "data: a\n\n", err: io.EOF},
		{name: "named by the filter", in: "data: {\"type\":\"ping\"}\n\n", filter: func(e *Event) error { e.Type = "ping"; return nil },
			want: "event: ping\ndata: {\"type\":\"ping\"}\n\n", err: io.EOF},
		{name: "a type with a line break", in: "data: a\n\n", filter: func(e *Event) error { e.Type = "x\r\ndata: b"; return nil },
			want: "event: x\ndata: a\n\n", err: io.EOF},
		{name: "data with line feeds", in: "data: a\n\n", filter: func(e *Event) error { e.Data = "a\nb\n"; return nil },
			want: "data: a\ndata: b\ndata: \n\n", err: io.EOF},
		{name: "ended by the filter", in: "data: a\n\nevent: error\ndata: b\n\ndata: c\n\n", filter: func(e *Event) error {
			if e.Type == "error" {
				return stop
			}
			return nil
		}, want: "data: a\n\n", err: stop},
		{name: "the filter sees events without data", in: "error: x\n\ndata: a\n\n", filter: func(e *Event) error {
			if _, ok := e.Field("error"); ok {
				return stop
			}
			return nil
		}, err: stop},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			b := NewBody(context.Background(), "demo", &closer{Reader: &chunks{parts: bytewise(tt.in)}}, tt.filter)
			got, err := readAll(b)
			if diff := cmp.Diff(tt.want, got); diff != "" {
				t.Errorf("body mismatch (-want +got):\n%s", diff)
			}
			if err != tt.err {
				t.Errorf("error %v, want %v", err, tt.err)
			}
		})
	}
}

// readAll reads b a few bytes at a time, to its end or error.
func readAll(b io.Reader) (string, error) {
	var out strings.Builder
	p := make([]byte, 3)
	for {
		n, err := b.Read(p)
		out.Write(p[:n])
		if err != nil {
			return out.String(), err
		}
	}
}

// TestBodyErrors: an error reading the stream names the provider and
// wraps what went wrong.
func TestBodyErrors(t *testing.T) {
	broken := errors.New("connection reset")
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	tests := []struct {
		name string
		ctx  context.Context
		in   io.Reader
		want string
		is   error
	}{
		{"broken", context.Background(), &failing{head: "data: a\n\n", err: broken}, "demo: read event stream: connection reset", broken},
		{"too long", context.Background(), endlessLine{}, "demo: read event stream: sse: line too long: more than 33554432 bytes", ErrTooLong},
		{"cancelled", ctx, endless{}, "demo: read event stream: context canceled", context.Canceled},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			src := &closer{Reader: tt.in}
			b := NewBody(tt.ctx, "demo", src, nil)
			_, err := io.Copy(io.Discard, b)
			if err == nil {
				t.Fatal("the body read to its end")
			}
			if diff := cmp.Diff(tt.want, err.Error()); diff != "" {
				t.Errorf("error mismatch (-want +got):\n%s", diff)
			}
			if !errors.Is(err, tt.is) {
				t.Errorf("error %v does not wrap %v", err, tt.is)
			}
			if b.Close(); src.closed != 1 {
				t.Errorf("the stream was closed %d times, want once", src.closed)
			}
		})
	}
}

// endlessLine is a stream of one line that never ends.
type endlessLine struct{}

func (endlessLine) Read(p []byte) (int, error) {
	for i := range p {
		p[i] = 'x'
	}
	return len(p), nil
}
