package agui

import (
	"fmt"
	"testing"

	"github.com/batonrt/baton/contract"
	wt "github.com/batonrt/baton/wire/internal/wiretest"
)

// verify checks one AG-UI run as @ag-ui/client's verifyEvents does: it
// opens with RUN_STARTED, and every message, reasoning span, tool call and
// step is started before its content or end, and ended before
// RUN_FINISHED.
func verify(events []Event) error {
	open := map[string]bool{}
	for i, e := range events {
		if (i == 0) != (e.Type == RunStarted) {
			return fmt.Errorf("event %d is %s", i, e.Type)
		}
		var key string
		switch e.Type {
		case TextMessageStart, TextMessageContent, TextMessageEnd:
			key = "text " + e.MessageID
		case ReasoningMessageStart, ReasoningMessageContent, ReasoningMessageEnd:
			key = "reasoning message " + e.MessageID
		case ReasoningStart, ReasoningEnd:
			key = "reasoning " + e.MessageID
		case ToolCallStart, ToolCallArgs, ToolCallEnd:
			key = "tool call " + e.ToolCallID
		case StepStarted, StepFinished:
			key = "step " + e.StepName
		case RunFinished:
			if len(open) > 0 {
				return fmt.Errorf("event %d: RUN_FINISHED with %v active", i, open)
			}
		}
		switch e.Type {
		case TextMessageStart, ReasoningMessageStart, ReasoningStart, ToolCallStart, StepStarted:
			if open[key] {
				return fmt.Errorf("event %d: %s started twice", i, key)
			}
			open[key] = true
		case TextMessageContent, ReasoningMessageContent, ToolCallArgs, TextMessageEnd, ReasoningMessageEnd, ReasoningEnd, ToolCallEnd, StepFinished:
			if !open[key] {
				return fmt.Errorf("event %d: %s for %s, which was not started", i, e.Type, key)
			}
			if e.Type != TextMessageContent && e.Type != ReasoningMessageContent && e.Type != ToolCallArgs {
				delete(open, key)
			}
		}
	}
	return nil
}

// A client that posts a message while the model streams gets a new
// AG-UI run of the baton run (Continue). That run is valid on its own
// whatever the model was streaming when the message came, and the client
// ends with the stored call: a tool call streamed before the message is
// finished in the new run, not ended there without having started. Its
// RUN_STARTED carries the id of the earlier stream's last frame.
func TestContinueMidTurnOpensAValidRun(t *testing.T) {
	call := &contract.ToolCall{ID: "c1", Name: "f"}
	thinking := wt.With(wt.Ev(1, 1, contract.EvThinkingDelta), func(e *contract.RunEvent) { e.Text = "think" })
	text := wt.With(wt.Ev(1, 2, contract.EvTextDelta), func(e *contract.RunEvent) { e.Text = "Hel" })
	args := wt.With(wt.Ev(1, 3, contract.EvToolCallDelta), func(e *contract.RunEvent) { e.Call = call; e.Text = `{"a"` })
	rest := []contract.RunEvent{
		wt.With(wt.Ev(2, 0, contract.EvTurnCompleted), func(e *contract.RunEvent) {
			e.Turn = wt.AssistantTurn(contract.Block{Kind: contract.BlockThinking, Text: "think hard"}, contract.TextBlock("Hello, world"),
				contract.CallBlock(contract.ToolCall{ID: "c1", Name: "f", Arguments: `{"a":1}`}))
		}),
		wt.With(wt.Ev(3, 0, contract.EvToolCall), func(e *contract.RunEvent) { e.Call = call }),
		wt.With(wt.Ev(4, 0, contract.EvToolResult), func(e *contract.RunEvent) {
			e.Result = &contract.ToolResult{CallID: "c1", Name: "f", Content: "ok"}
		}),
		wt.Ev(5, 0, contract.EvRunSettled),
	}
	tests := []struct {
		name   string
		before []contract.RunEvent
	}{
		{"before the model streamed", nil},
		{"while it thinks", []contract.RunEvent{thinking}},
		{"while it writes", []contract.RunEvent{thinking, text}},
		{"while it calls a tool", []contract.RunEvent{thinking, text, args}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			p := NewProjector("thread-1")
			var first []Event
			for _, e := range append([]contract.RunEvent{wt.Ev(1, 0, contract.EvRunStarted)}, tt.before...) {
				first = append(first, p.Project(e)...)
			}
			second := p.Continue()
			// A client cut right after RUN_STARTED reconnects from where
			// the earlier stream left it, not before deltas it has.
			if want := first[len(first)-1].ID; second[0].ID != want {
				t.Errorf("the continued run starts at %q, want %q (the earlier stream's last frame)", second[0].ID, want)
			}
			for _, e := range rest {
				second = append(second, p.Project(e)...)
			}
			if err := verify(second); err != nil {
				t.Fatalf("the continued run: %v", err)
			}
			if got := clientText(append(first, second...))["c1"]; got != `{"a":1}` {
				t.Errorf("the client's call has arguments %q, want %q", got, `{"a":1}`)
			}
		})
	}
}
