package agui

import (
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/batonrt/baton/contract"
	wt "github.com/batonrt/baton/wire/internal/wiretest"
)

// TestToolResultSaysOutputWasCut: TOOL_CALL_RESULT's content is a
// string with no place for a flag, so a result whose output was cut is
// followed by a baton.tool_result_truncated CUSTOM event naming the
// call, and only such a result is.
func TestToolResultSaysOutputWasCut(t *testing.T) {
	content := wt.ResultA.Content
	result := Event{Type: ToolCallResult, MessageID: "t-call_1", ToolCallID: "call_1", Content: &content, Role: "tool", Timestamp: 5000}
	tests := []struct {
		name      string
		truncated bool
		want      []Event
	}{
		{"whole output", false, []Event{withID(result, "5")}},
		{"cut output", true, []Event{result, {
			Type: Custom, Name: CustomToolResultTruncated, Timestamp: 5000, ID: "5",
			Value: map[string]any{"toolCallId": "call_1", "toolCallName": "get_weather"},
		}}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			p := NewProjector("thread-1")
			p.Project(wt.Ev(1, 0, contract.EvRunStarted))
			got := p.Project(wt.With(wt.Ev(5, 0, contract.EvToolResult), func(e *contract.RunEvent) {
				e.Call, e.Result, e.Truncated = &wt.CallA, &wt.ResultA, tt.truncated
			}))
			if diff := cmp.Diff(tt.want, got); diff != "" {
				t.Errorf("events mismatch (-want +got):\n%s", diff)
			}
		})
	}
}

func withID(e Event, id string) Event { e.ID = id; return e }
