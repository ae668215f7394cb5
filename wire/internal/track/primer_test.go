package track

import (
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/batonrt/baton/contract"
)

// reply is a stored assistant turn of text and calls.
func reply(text string, calls ...contract.ToolCall) contract.Turn {
	t := contract.Turn{Role: contract.RoleAssistant}
	if text != "" {
		t.Blocks = append(t.Blocks, contract.Block{Kind: contract.BlockText, Text: text})
	}
	for _, c := range calls {
		t.Blocks = append(t.Blocks, contract.Block{Kind: contract.BlockToolCall, Call: &c})
	}
	return t
}

// primed is where a stream stands once Primer's deltas went through it.
type primed struct {
	Text   string
	Calls  map[string]string
	Differ Differs
}

// Primer brings a stream, part by part, as far as the stored reply goes
// on from what the client has: a part the runtime mended, or one of
// another call, is named in Differs rather than cut from the reply, and
// a call of the client's that the reply does not hold is left out and
// named in Differs.
func TestMarkPrimer(t *testing.T) {
	f := func(id, args string) contract.ToolCall { return contract.ToolCall{ID: id, Name: "f", Arguments: args} }
	tests := []struct {
		name   string
		client *Stream
		stored contract.Turn
		want   primed
	}{
		{"the reply goes on", streamed("Hello ", `{"a":`), reply("Hello world.", f("c1", `{"a":1}`)),
			primed{Text: "Hello ", Calls: map[string]string{"c1": `{"a":`}}},
		{"the call dropped", streamed("Hello ", `{"a":`), reply("Hello world."),
			primed{Text: "Hello ", Calls: map[string]string{}, Differ: Differs{Calls: true}}},
		{"arguments repaired", streamed("Hello ", `{a:`), reply("Hello world.", f("c1", `{"a":1}`)),
			primed{Text: "Hello ", Calls: map[string]string{}, Differ: Differs{Calls: true}}},
		{"text of another call", streamed("Howdy ", `{"a":`), reply("Hello world.", f("c1", `{"a":1}`)),
			primed{Differ: Differs{Text: true}, Calls: map[string]string{"c1": `{"a":`}}},
		{"text turned into a call", streamed(`{"name":"f"`, ""), reply("", f("c9", `{}`)),
			primed{Differ: Differs{Text: true, Calls: true}, Calls: map[string]string{}}},
		{"a call under another id", streamed("Hello ", `{"a":`), reply("Hello ", f("c2", `{"a":1}`)),
			primed{Text: "Hello ", Calls: map[string]string{}, Differ: Differs{Calls: true}}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			m, err := ParseMark(tt.client.Mark())
			if err != nil {
				t.Fatal(err)
			}
			deltas, d, ok := m.Primer(3, tt.stored)
			if !ok {
				t.Fatalf("Primer refused the mark %q", tt.client.Mark())
			}
			s := New("sess")
			s.BeginTurn(3)
			got := primed{Calls: map[string]string{}, Differ: d}
			for _, ev := range deltas {
				switch ev.Kind {
				case contract.EvTextDelta:
					got.Text += ev.Text
				case contract.EvToolCallDelta:
					got.Calls[ev.Call.ID] += ev.Text
				}
			}
			if diff := cmp.Diff(tt.want, got); diff != "" {
				t.Errorf("mismatch (-want +got):\n%s", diff)
			}
		})
	}
}

// A model call with more parallel calls than a mark lists in full still
// gets a bounded mark: the newest calls, how many came before, and the
// whole call's fingerprint, which tells the call from another.
func TestMarkBoundedForManyCalls(t *testing.T) {
	s := New("sess")
	s.BeginTurn(3)
	for i := range 60 {
		c, _ := s.Call(contract.RunEvent{Kind: contract.EvToolCallDelta, Seq: 3, Index: i, Call: &contract.ToolCall{ID: "call_" + strings.Repeat("x", 20) + string(rune('a'+i%26)), Name: "f"}})
		c.AppendArgs(`{"n":1000}`)
	}
	enc := s.Mark()
	if enc == "" || len(enc) > maxMark {
		t.Fatalf("Mark() = %q (%d bytes), want a mark of at most %d bytes", enc, len(enc), maxMark)
	}
	m, err := ParseMark(enc)
	if err != nil {
		t.Fatalf("ParseMark(%q): %v", enc, err)
	}
	if m.Earlier == 0 || m.Earlier+len(m.Calls) != 60 {
		t.Errorf("the mark lists %d calls after %d earlier ones, want 60 in all", len(m.Calls), m.Earlier)
	}
	if !s.Holds(m) {
		t.Errorf("the stream does not hold its own mark %q", enc)
	}
	other := New("sess")
	other.BeginTurn(3)
	for i := range 60 {
		c, _ := other.Call(contract.RunEvent{Kind: contract.EvToolCallDelta, Seq: 3, Index: i, Call: &contract.ToolCall{ID: "new_" + strings.Repeat("y", 20) + string(rune('a'+i%26)), Name: "f"}})
		c.AppendArgs(`{"n":1000}`)
	}
	if other.Holds(m) {
		t.Errorf("a call made again under other ids holds the mark %q", enc)
	}
}
