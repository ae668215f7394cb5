package aisdk

import (
	"encoding/json"
	"fmt"
	"testing"

	"github.com/batonrt/baton/contract"
)

// verify checks one stream of chunks as the AI SDK's
// processUIMessageStream does for a new message: the deltas and end of a
// text or reasoning part, and the input deltas of a tool call, come after
// the part's start in the same stream.
func verify(chunks []Chunk) error {
	open := map[string]bool{}
	for i, c := range chunks {
		if (i == 0) != (c.Type == Start) {
			return fmt.Errorf("chunk %d is %s", i, c.Type)
		}
		switch c.Type {
		case TextStart, ReasoningStart:
			open[c.Type+" "+c.ID] = true
		case TextDelta, TextEnd:
			if !open[TextStart+" "+c.ID] {
				return fmt.Errorf("chunk %d: %s for missing text part %q", i, c.Type, c.ID)
			}
		case ReasoningDelta, ReasoningEnd:
			if !open[ReasoningStart+" "+c.ID] {
				return fmt.Errorf("chunk %d: %s for missing reasoning part %q", i, c.Type, c.ID)
			}
		case ToolInputStart:
			open["tool "+c.ToolCallID] = true
		case ToolInputDelta:
			if !open["tool "+c.ToolCallID] {
				return fmt.Errorf("chunk %d: %s for missing tool call %q", i, c.Type, c.ToolCallID)
			}
		}
	}
	return nil
}

// A chat message posted while the model streams opens a new assistant
// message of the run (Continue). That stream is one the client accepts
// whatever the model was streaming when the message came: a tool call
// whose arguments go on streaming has its part started in the new
// message, holding the arguments streamed so far.
func TestContinueMidTurnOpensAValidMessage(t *testing.T) {
	call := &contract.ToolCall{ID: "c1", Name: "f"}
	thinking := with(ev(1, 1, contract.EvThinkingDelta), func(e *contract.RunEvent) { e.Text = "think" })
	text := with(ev(1, 2, contract.EvTextDelta), func(e *contract.RunEvent) { e.Text = "Hel" })
	args := with(ev(1, 3, contract.EvToolCallDelta), func(e *contract.RunEvent) { e.Call = call; e.Text = `{"a"` })
	rest := []contract.RunEvent{
		with(ev(2, 1, contract.EvToolCallDelta), func(e *contract.RunEvent) { e.Call = call; e.Text = `:1}` }),
		with(ev(2, 0, contract.EvTurnCompleted), func(e *contract.RunEvent) {
			e.Turn = assistantTurn(contract.Block{Kind: contract.BlockThinking, Text: "think"}, contract.TextBlock("Hel"),
				contract.CallBlock(contract.ToolCall{ID: "c1", Name: "f", Arguments: `{"a":1}`}))
		}),
		with(ev(3, 0, contract.EvToolResult), func(e *contract.RunEvent) {
			e.Result = &contract.ToolResult{CallID: "c1", Name: "f", Content: "ok"}
		}),
		ev(4, 0, contract.EvRunSettled),
	}
	p := NewProjector("thread-1")
	for _, e := range []contract.RunEvent{ev(1, 0, contract.EvRunStarted), thinking, text, args} {
		p.Project(e)
	}
	second := p.Continue("run-1-2")
	for _, e := range rest {
		second = append(second, p.Project(e)...)
	}
	if err := verify(second); err != nil {
		t.Fatalf("the continued message: %v", err)
	}
	var streamed string
	for _, c := range second {
		if c.Type == ToolInputDelta && c.ToolCallID == "c1" {
			streamed += c.InputTextDelta
		}
	}
	if !json.Valid([]byte(streamed)) {
		t.Errorf("the new message's part for c1 streamed %q, want the whole arguments", streamed)
	}
}
