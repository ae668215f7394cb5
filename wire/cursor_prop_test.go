package wire

import (
	"fmt"
	"slices"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
	"pgregory.net/rapid"

	"github.com/batonrt/baton/contract"
	"github.com/batonrt/baton/wire/agui"
	wt "github.com/batonrt/baton/wire/internal/wiretest"
)

// A model call streamed in random pieces (reasoning, text, tool calls,
// maybe after a retried attempt), resumed from the id of any frame of its
// last attempt against the store alone (no deltas, as after the thread
// was closed and opened again), is a run the client accepts and leaves it
// with exactly the text of a client that never left.
func TestResumeWithoutDeltasIsExact(t *testing.T) {
	rapid.Check(t, func(t *rapid.T) {
		events := randomCall(t)
		frames := project(events)
		whole := newAGUIClient()
		whole.fold(frames)
		stored := wt.CommittedOnly(events)
		retried := -1
		for i, f := range frames {
			if f.Event.Type == agui.Custom && f.Event.Name == agui.CustomModelRetry {
				retried = i
			}
		}
		for i, f := range frames {
			if f.ID == "" || i <= retried {
				continue
			}
			c := newAGUIClient()
			c.fold(frames[:i+1])
			c.fold(resumeFrom(t, stored, f.ID))
			if diff := cmp.Diff(whole.text, c.text); diff != "" {
				t.Fatalf("resumed after %s: text mismatch (-want +got):\n%s", f.ID, diff)
			}
			if len(c.faults) > 0 {
				t.Fatalf("resumed after %s: the client errors the run: %v", f.ID, c.faults)
			}
		}
	})
}

// resumeFrom projects stored for a client at the SSE id last, as
// Handler.resume does: Rejoin, Resume, then the events the client lacks.
func resumeFrom(t *rapid.T, stored []contract.RunEvent, last string) []sseFrame {
	at, err := parseCursor(last)
	if err != nil {
		t.Fatalf("the projector wrote an id the handler refuses: %q: %v", last, err)
	}
	p := agui.NewProjector("t")
	j := at.rejoin("t", stored)
	n := j.n
	for _, ev := range slices.Concat(stored[:n], j.primer) {
		p.Project(ev)
	}
	if at.mark != nil {
		p.Rejoin(at.seq, *at.mark, j.held, agui.Session{Had: stored[:n], Later: stored[n:]})
	}
	p.Reconnected(last)
	var out []sseFrame
	for _, e := range p.Resume() {
		out = append(out, sseFrame{ID: e.ID, Event: e})
	}
	return append(out, project(stored[n:], p)...)
}

func project(events []contract.RunEvent, p ...*agui.Projector) []sseFrame {
	if len(p) == 0 {
		p = append(p, agui.NewProjector("t"))
	}
	var out []sseFrame
	for _, ev := range events {
		for _, e := range p[0].Project(ev) {
			out = append(out, sseFrame{ID: e.ID, Event: e})
		}
	}
	return out
}

// randomCall is a run of one model call that streams its reasoning, text
// and calls in random pieces, maybe after an attempt that broke.
func randomCall(t *rapid.T) []contract.RunEvent {
	word := rapid.StringMatching(`[a-zé ]{0,12}`)
	thinking, text := word.Draw(t, "thinking"), word.Draw(t, "text")
	ev := func(seq uint64, delta uint32, kind contract.EventKind, s string) contract.RunEvent {
		return contract.RunEvent{Seq: seq, Delta: delta, SessionID: "t", RunID: "r", Kind: kind, Text: s}
	}
	events := []contract.RunEvent{ev(1, 0, contract.EvRunStarted, "")}
	var delta uint32
	add := func(e contract.RunEvent) { delta++; e.Delta = delta; events = append(events, e) }
	if broken := word.Draw(t, "broken"); broken != "" {
		add(ev(1, 0, contract.EvTextDelta, broken))
		add(ev(1, 0, contract.EvModelRetry, "retry"))
	}
	pieces := func(s, label string) []string {
		var out []string
		for s != "" {
			n := rapid.IntRange(1, len(s)).Draw(t, label)
			out = append(out, s[:n])
			s = s[n:]
		}
		return out
	}
	var blocks []contract.Block
	if thinking != "" {
		blocks = append(blocks, contract.Block{Kind: contract.BlockThinking, Text: thinking})
		for _, p := range pieces(thinking, "thinking piece") {
			add(ev(1, 0, contract.EvThinkingDelta, p))
		}
	}
	if text != "" {
		blocks = append(blocks, contract.TextBlock(text))
		for _, p := range pieces(text, "text piece") {
			add(ev(1, 0, contract.EvTextDelta, p))
		}
	}
	for i := range rapid.IntRange(0, 2).Draw(t, "calls") {
		call := contract.ToolCall{ID: fmt.Sprintf("call_%d", i), Name: "f", Arguments: `{"a":"` + strings.ReplaceAll(word.Draw(t, "args"), " ", "") + `"}`}
		blocks = append(blocks, contract.CallBlock(call))
		add(contract.RunEvent{Seq: 1, Kind: contract.EvToolCallDelta, Index: i, Call: &contract.ToolCall{ID: call.ID, Name: call.Name}})
		for _, p := range pieces(call.Arguments, "args piece") {
			add(contract.RunEvent{Seq: 1, Kind: contract.EvToolCallDelta, Index: i, Call: &contract.ToolCall{ID: call.ID, Name: call.Name}, Text: p})
		}
	}
	done := ev(2, 0, contract.EvTurnCompleted, "")
	done.Turn = wt.AssistantTurn(blocks...)
	return append(events, done, ev(3, 0, contract.EvRunSettled, ""))
}
