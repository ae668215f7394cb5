package aisdk

import (
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/batonrt/baton/contract"
	wt "github.com/batonrt/baton/wire/internal/wiretest"
)

// TestToolOutputSaysOutputWasCut: the UI message stream's tool output
// chunks have no field for it, so an output that was cut is followed by
// a data-baton-tool-output-truncated part naming the call, kept in the
// message under an id of its own so a re-projection replaces it; an
// error result that was cut says so too, and a whole output does not.
func TestToolOutputSaysOutputWasCut(t *testing.T) {
	content := wt.ResultA.Content
	failed := wt.ResultA
	failed.IsError = true
	cut := Chunk{Type: DataToolOutputTruncated, ID: "truncated-call_1", Data: map[string]any{"toolCallId": "call_1", "toolName": "get_weather"}}
	tests := []struct {
		name      string
		result    contract.ToolResult
		truncated bool
		want      []Chunk
	}{
		{"whole output", wt.ResultA, false, []Chunk{{Type: ToolOutputAvail, ToolCallID: "call_1", Output: &content}}},
		{"cut output", wt.ResultA, true, []Chunk{{Type: ToolOutputAvail, ToolCallID: "call_1", Output: &content}, cut}},
		{"cut error", failed, true, []Chunk{{Type: ToolOutputError, ToolCallID: "call_1", ErrorText: content}, cut}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			p := NewProjector("thread-1")
			p.Project(wt.Ev(1, 0, contract.EvRunStarted))
			p.Project(wt.With(wt.Ev(2, 0, contract.EvTurnCompleted), func(e *contract.RunEvent) {
				e.Turn = wt.AssistantTurn(contract.CallBlock(wt.CallA))
			}))
			got := p.Project(wt.With(wt.Ev(5, 0, contract.EvToolResult), func(e *contract.RunEvent) {
				e.Call, e.Result, e.Truncated = &wt.CallA, &tt.result, tt.truncated
			}))
			if diff := cmp.Diff(tt.want, got); diff != "" {
				t.Errorf("chunks mismatch (-want +got):\n%s", diff)
			}
		})
	}
}
