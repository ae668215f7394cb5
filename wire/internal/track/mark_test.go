package track

import (
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/batonrt/baton/contract"
)

// streamed is a stream inside a model call at seq 3 that streamed text
// and the arguments of one call, c1.
func streamed(text, args string) *Stream { return streamedCall("c1", text, args) }

// streamedCall is streamed with the call's id.
func streamedCall(id, text, args string) *Stream {
	s := New("sess")
	s.BeginTurn(3)
	s.Text.Start()
	s.Text.Append(text)
	c, _ := s.Call(contract.RunEvent{Kind: contract.EvToolCallDelta, Seq: 3, Delta: 2, Call: &contract.ToolCall{ID: id, Name: "f"}})
	c.AppendArgs(args)
	return s
}

// A mark names what each part streamed, with a fingerprint of the bytes,
// so that a stream that streamed as many other bytes is told apart; a
// mark of an earlier release, without one, is compared by its counts.
func TestMarkHolds(t *testing.T) {
	mark := streamed("Hello ", `{"a":`).Mark()
	old, _, _ := strings.Cut(mark, "~")
	tests := []struct {
		name   string
		mark   string
		stream *Stream
		want   bool
	}{
		{"the same bytes", mark, streamed("Hello ", `{"a":`), true},
		{"as many other bytes", mark, streamed("Howdy ", `{"a":`), false},
		{"other arguments", mark, streamed("Hello ", `{"b":`), false},
		{"the same bytes under another call id", mark, streamedCall("c2", "Hello ", `{"a":`), false},
		{"more text", mark, streamed("Hello w", `{"a":`), false},
		{"an earlier release's mark, as many bytes", old, streamed("Howdy ", `{"a":`), true},
		{"an earlier release's mark, more text", old, streamed("Hello w", `{"a":`), false},
		{"no model call", mark, New("sess"), false},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			m, err := ParseMark(tt.mark)
			if err != nil {
				t.Fatalf("ParseMark(%q): %v", tt.mark, err)
			}
			if got := tt.stream.Holds(m); got != tt.want {
				t.Errorf("Holds(%q) = %v, want %v", tt.mark, got, tt.want)
			}
		})
	}
}

// A mark parses back to what it encodes, with or without a fingerprint.
func TestParseMarkRoundTrips(t *testing.T) {
	s := streamed("Hello ", `{"a":`)
	s.Retry()
	s.Text.Start()
	s.Text.Append("Hi")
	got, err := ParseMark(s.Mark())
	if err != nil {
		t.Fatal(err)
	}
	want := Mark{Attempt: 1, Thinking: -1, Text: 2, Sum: uint32(s.sum()), HasSum: true, Parts: []uint32{0, uint32(s.Text.sum)}}
	if diff := cmp.Diff(want, got); diff != "" {
		t.Errorf("mismatch (-want +got):\n%s", diff)
	}
	for _, bad := range []string{"0,-,2~", "0,-,2~-1", "0,-,2~zzzzzzzzz", "~1", "0,-,2~1.2", "0,-,2,*0~1", "0,-,2,*1,3~1.2.3.4"} {
		if _, err := ParseMark(bad); err == nil {
			t.Errorf("ParseMark(%q) accepted a malformed mark", bad)
		}
	}
}
