package track

import (
	"strconv"
	"testing"

	"pgregory.net/rapid"

	"github.com/batonrt/baton/contract"
)

// parallel is a stream inside a model call that began calls calls, each
// of whose arguments streamed args bytes, after text.
func parallel(calls int, text, args string) *Stream {
	s := New("sess")
	s.BeginTurn(3)
	s.Text.Start()
	s.Text.Append(text)
	for i := range calls {
		c, _ := s.Call(contract.RunEvent{Kind: contract.EvToolCallDelta, Seq: 3, Delta: uint32(i + 2), Index: i, Call: &contract.ToolCall{ID: "c" + strconv.Itoa(i), Name: "f"}})
		c.AppendArgs(args)
	}
	return s
}

// Every streamed delta's SSE id carries the stream's mark, so a mark
// costs the same few allocations however many parallel calls the model
// call began: a mark that tried each count of left-out calls in turn,
// encoding the mark anew for each, cost every delta of a reply with
// hundreds of calls thousands of allocations.
func TestMarkCostDoesNotGrowWithCalls(t *testing.T) {
	few := testing.AllocsPerRun(50, func() { _ = parallel(4, "Hello", `{"a":1}`).Mark() })
	few -= testing.AllocsPerRun(50, func() { _ = parallel(4, "Hello", `{"a":1}`) })
	many := testing.AllocsPerRun(50, func() { _ = parallel(400, "Hello", `{"a":1}`).Mark() })
	many -= testing.AllocsPerRun(50, func() { _ = parallel(400, "Hello", `{"a":1}`) })
	if many > few+1 {
		t.Errorf("Mark allocates %.0f times with 400 calls, %.0f with 4: its cost grows with the calls", many, few)
	}
}

// referenceMark is the mark Mark returns by its definition: the first
// encoding that fits, leaving out as few earlier calls as it can, with
// each part's fingerprint when they fit.
func referenceMark(s *Stream) string {
	if !s.InTurn {
		return ""
	}
	for earlier := 0; earlier <= len(s.order); earlier++ {
		for _, parts := range []bool{true, false} {
			if m := s.mark(earlier, parts); len(m) <= maxMark {
				return m
			}
		}
	}
	return ""
}

// Mark is the first encoding that fits, whatever the counts of calls and
// bytes streamed, and parses back to what the stream holds.
func TestMarkIsTheFirstThatFits(t *testing.T) {
	rapid.Check(t, func(t *rapid.T) {
		s := New("sess")
		s.BeginTurn(3)
		s.Attempt = rapid.IntRange(0, 1<<20).Draw(t, "attempt")
		if rapid.Bool().Draw(t, "thinking") {
			s.Thinking.Start()
			s.Thinking.Append(rapid.StringN(0, 2000, -1).Draw(t, "thought"))
		}
		if rapid.Bool().Draw(t, "text") {
			s.Text.Start()
			s.Text.Append(rapid.StringN(0, 2000, -1).Draw(t, "said"))
		}
		for i := range rapid.IntRange(0, 120).Draw(t, "calls") {
			c, _ := s.Call(contract.RunEvent{Kind: contract.EvToolCallDelta, Seq: 3, Delta: 1, Index: i, Call: &contract.ToolCall{ID: "c" + strconv.Itoa(i), Name: "f"}})
			c.AppendArgs(rapid.StringN(0, 30000, -1).Draw(t, "args"))
		}
		got, want := s.Mark(), referenceMark(s)
		if got != want {
			t.Fatalf("Mark() = %q, want %q", got, want)
		}
		if got == "" {
			return
		}
		m, err := ParseMark(got)
		if err != nil {
			t.Fatalf("ParseMark(%q): %v", got, err)
		}
		if !s.Holds(m) {
			t.Fatalf("the stream does not hold its own mark %q", got)
		}
	})
}
