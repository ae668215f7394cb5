package agui

import (
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/batonrt/baton/contract"
	wt "github.com/batonrt/baton/wire/internal/wiretest"
)

// retriedRun is a run whose model reasons again while its text is open,
// is retried, and then streams two tool calls side by side.
func retriedRun() []contract.RunEvent {
	c1 := contract.ToolCall{ID: "c1", Name: "f", Arguments: `{"a":1}`}
	c2 := contract.ToolCall{ID: "c2", Name: "g", Arguments: `{}`}
	text := func(seq uint64, delta uint32, kind contract.EventKind, s string) contract.RunEvent {
		return wt.With(wt.Ev(seq, delta, kind), func(e *contract.RunEvent) { e.Text = s })
	}
	callDelta := func(delta uint32, index int, c contract.ToolCall, args string) contract.RunEvent {
		return wt.With(wt.Ev(1, delta, contract.EvToolCallDelta), func(e *contract.RunEvent) {
			e.Index, e.Call, e.Text = index, &contract.ToolCall{ID: c.ID, Name: c.Name}, args
		})
	}
	return []contract.RunEvent{
		wt.Ev(1, 0, contract.EvRunStarted),
		text(1, 1, contract.EvThinkingDelta, "plan"),
		text(1, 2, contract.EvTextDelta, "Hi"),
		text(1, 3, contract.EvThinkingDelta, " more"),
		text(1, 4, contract.EvModelRetry, "overloaded"),
		text(1, 5, contract.EvThinkingDelta, "plan"),
		callDelta(6, 0, c1, `{"a"`),
		callDelta(7, 1, c2, `{`),
		callDelta(8, 0, c1, `:1}`),
		wt.With(wt.Ev(2, 0, contract.EvTurnCompleted), func(e *contract.RunEvent) {
			e.Turn = wt.AssistantTurn(contract.Block{Kind: contract.BlockThinking, Text: "plan"}, contract.CallBlock(c1), contract.CallBlock(c2))
		}),
		wt.With(wt.Ev(3, 0, contract.EvToolCall), func(e *contract.RunEvent) { e.Call = &c1 }),
		wt.With(wt.Ev(4, 0, contract.EvToolCall), func(e *contract.RunEvent) { e.Call = &c2 }),
		wt.With(wt.Ev(5, 0, contract.EvToolResult), func(e *contract.RunEvent) { e.Result = &contract.ToolResult{CallID: "c1", Content: "1"} }),
		wt.With(wt.Ev(6, 0, contract.EvToolResult), func(e *contract.RunEvent) { e.Result = &contract.ToolResult{CallID: "c2", Content: "2"} }),
		text(6, 1, contract.EvTextDelta, "Done"),
		wt.With(wt.Ev(7, 0, contract.EvTurnCompleted), func(e *contract.RunEvent) { e.Turn = wt.AssistantTurn(contract.TextBlock("Done")) }),
		wt.Ev(8, 0, contract.EvRunSettled),
	}
}

// A client whose stream is cut after any frame reconnects with the newest
// id it got, and the resumed stream (Resume, then the rest of the run) is
// a valid AG-UI run on its own, as @ag-ui/client checks the new run it
// opens for the reconnect: whatever was open at the cut (reasoning, text,
// tool calls streaming their arguments, steps) is started again under its
// own id before its content or end comes. A client that keeps what it had
// ignores those starts, and ends with the text of a client that never
// left.
func TestResumeAfterAnyFrameOpensAValidRun(t *testing.T) {
	for name, events := range map[string][]contract.RunEvent{
		"live run":      wt.LiveRun(),
		"delegated run": wt.DelegatedRun(),
		"retried run":   retriedRun(),
	} {
		t.Run(name, func(t *testing.T) {
			p := NewProjector("thread-1")
			var frames []Event
			var upTo []int // upTo[k] counts the events frames[:k+1] come from
			for i, ev := range events {
				for _, f := range p.Project(ev) {
					frames = append(frames, f)
					upTo = append(upTo, i+1)
				}
			}
			whole := clientText(frames)
			had := 0 // the events of the newest frame with an id, and those before
			for k, f := range frames {
				if f.ID != "" {
					had = upTo[k]
				}
				if had == 0 {
					continue
				}
				p := NewProjector("thread-1")
				for _, ev := range events[:had] {
					p.Project(ev)
				}
				resumed := p.Resume()
				for _, ev := range events[had:] {
					resumed = append(resumed, p.Project(ev)...)
				}
				if len(resumed) == 0 {
					continue
				}
				if err := verify(resumed); err != nil {
					t.Fatalf("resumed after frame %d (%s, id %q): %v", k, f.Type, f.ID, err)
				}
				if f.ID == "" {
					continue
				}
				if diff := cmp.Diff(whole, clientText(append(frames[:k+1:k+1], resumed...))); diff != "" {
					t.Fatalf("resumed after %s: text mismatch (-want +got):\n%s", f.ID, diff)
				}
			}
		})
	}
}
