package ledger

import (
	"strings"
	"testing"
	"time"

	"github.com/batonrt/baton/contract"
	"github.com/google/go-cmp/cmp"
	"pgregory.net/rapid"
)

// burst is a model call streaming words as text deltas, then the turn's
// completion and the run's end: what a 30,000-word reply publishes.
func burst(words int) (events []contract.RunEvent, text string) {
	var b strings.Builder
	events = append(events, contract.RunEvent{Seq: 1, SessionID: "s", RunID: "r", Kind: contract.EvRunStarted})
	for i := range words {
		w := "word" + string(rune('a'+i%26)) + " "
		b.WriteString(w)
		events = append(events, contract.RunEvent{Seq: 1, Delta: uint32(i + 1), SessionID: "s", RunID: "r", Kind: contract.EvTextDelta, Text: w})
	}
	turn := contract.Turn{Role: contract.RoleAssistant, Blocks: []contract.Block{contract.TextBlock(b.String())}}
	events = append(events,
		contract.RunEvent{Seq: 2, SessionID: "s", RunID: "r", Kind: contract.EvTurnCompleted, Turn: &turn},
		contract.RunEvent{Seq: 3, SessionID: "s", RunID: "r", Kind: contract.EvRunSettled})
	return events, b.String()
}

// streamed folds what a subscriber got: the text of its deltas and the
// kinds of its committed events.
func streamed(got []contract.RunEvent) (string, []contract.EventKind) {
	var b strings.Builder
	var kinds []contract.EventKind
	for _, e := range got {
		switch {
		case e.Kind == contract.EvTextDelta:
			b.WriteString(e.Text)
		case e.Kind != contract.EvLag:
			kinds = append(kinds, e.Kind)
		}
	}
	return b.String(), kinds
}

// A subscriber that cannot keep up with a 30,000-word burst (stalled
// through all of it, or taking 10µs per event) still gets every byte of
// the text and the turn's and the run's end.
func TestLaggingSubscriberLosesNoText(t *testing.T) {
	events, text := burst(30000)
	for _, tt := range []struct {
		name string
		fn   func(gate <-chan struct{}) func(contract.RunEvent)
	}{
		{"stalled", func(gate <-chan struct{}) func(contract.RunEvent) {
			return func(contract.RunEvent) { <-gate }
		}},
		{"10µs per event", func(<-chan struct{}) func(contract.RunEvent) {
			return func(contract.RunEvent) { time.Sleep(10 * time.Microsecond) }
		}},
	} {
		t.Run(tt.name, func(t *testing.T) {
			h := NewHub(Options{Buffer: 16})
			gate := make(chan struct{})
			var c collector
			slow := tt.fn(gate)
			h.Subscribe(func(e contract.RunEvent) { slow(e); c.fn(e) })
			for _, e := range events {
				h.Publish(&e)
			}
			close(gate)
			h.Close()
			gotText, kinds := streamed(c.got)
			if gotText != text {
				t.Errorf("got %d bytes of text, want %d", len(gotText), len(text))
			}
			want := []contract.EventKind{contract.EvRunStarted, contract.EvTurnCompleted, contract.EvRunSettled}
			if diff := cmp.Diff(want, kinds); diff != "" {
				t.Errorf("mismatch (-want +got):\n%s", diff)
			}
			if n := len(c.got); n > 100 && tt.name == "stalled" {
				t.Errorf("a stalled subscriber got %d events; merged deltas should be a handful", n)
			}
		})
	}
}

// Deltas of different parts are not merged into each other, and a
// dropped event between two deltas stops the merge, so order holds.
func TestMergeKeepsPartsAndOrderApart(t *testing.T) {
	s := newSubscriber(1)
	d := func(delta uint32, kind contract.EventKind, index int, text string) contract.RunEvent {
		return contract.RunEvent{Seq: 4, Delta: delta, SessionID: "s", RunID: "r", Kind: kind, Index: index, Text: text}
	}
	for _, e := range []contract.RunEvent{
		ev(3),
		d(1, contract.EvThinkingDelta, 0, "a"),
		d(2, contract.EvThinkingDelta, 0, "b"),
		d(3, contract.EvTextDelta, 0, "c"),
		d(4, contract.EvToolCallDelta, 0, "{"),
		d(5, contract.EvToolCallDelta, 1, "["),
		d(6, contract.EvToolCallDelta, 1, "]"),
		ev(5), // dropped
		d(7, contract.EvToolCallDelta, 1, "x"),
	} {
		s.push(&e)
	}
	want := []contract.RunEvent{
		ev(3),
		d(2, contract.EvThinkingDelta, 0, "ab"),
		d(3, contract.EvTextDelta, 0, "c"),
		d(4, contract.EvToolCallDelta, 0, "{"),
		d(6, contract.EvToolCallDelta, 1, "[]"),
		{Seq: 5, SessionID: "s", RunID: "r", Kind: contract.EvLag, Missed: 1},
		d(7, contract.EvToolCallDelta, 1, "x"),
	}
	if diff := cmp.Diff(want, s.take()); diff != "" {
		t.Errorf("mismatch (-want +got):\n%s", diff)
	}
}

// TestMergeProperty: whatever the interleaving of deltas, committed events
// and takes, the text a subscriber assembles per part equals what was
// published, turn ends all arrive, and every other event is delivered or
// counted by a lag notice.
func TestMergeProperty(t *testing.T) {
	rapid.Check(t, func(t *rapid.T) {
		s := newSubscriber(rapid.IntRange(1, 6).Draw(t, "limit"))
		var seq uint64 = 1
		var delta uint32
		var got []contract.RunEvent
		published := map[int]string{}
		committed, ends := 0, 0
		t.Repeat(map[string]func(*rapid.T){
			"delta": func(t *rapid.T) {
				delta++
				index := rapid.IntRange(0, 2).Draw(t, "index")
				text := rapid.StringMatching(`[a-z]{0,3}`).Draw(t, "text")
				published[index] += text
				s.push(&contract.RunEvent{Seq: seq, Delta: delta, Kind: contract.EvToolCallDelta, Index: index, Text: text})
			},
			"committed": func(t *rapid.T) {
				seq++
				committed++
				kind := rapid.SampledFrom([]contract.EventKind{contract.EvToolResult, contract.EvTurnCompleted}).Draw(t, "kind")
				if kind == contract.EvTurnCompleted {
					ends++
				}
				s.push(&contract.RunEvent{Seq: seq, Kind: kind})
			},
			"take": func(t *rapid.T) { got = append(got, s.take()...) },
		})
		s.close()
		got = append(got, s.take()...)
		assembled := map[int]string{}
		delivered, missed, gotEnds := 0, 0, 0
		for _, e := range got {
			switch e.Kind {
			case contract.EvToolCallDelta:
				assembled[e.Index] += e.Text
			case contract.EvLag:
				missed += e.Missed
			case contract.EvTurnCompleted:
				gotEnds++
				delivered++
			default:
				delivered++
			}
		}
		for i, text := range published {
			if assembled[i] != text {
				t.Fatalf("part %d: assembled %q, published %q", i, assembled[i], text)
			}
		}
		if gotEnds != ends || delivered+missed != committed {
			t.Fatalf("turn ends %d of %d; delivered %d + missed %d of %d", gotEnds, ends, delivered, missed, committed)
		}
	})
}
