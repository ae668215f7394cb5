package openai

import (
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/batonrt/baton/contract"
)

// TestToolResultText: Chat Completions' tool messages have no error
// flag, so a failed call's result says in its text that the call failed;
// otherwise the model reads the error as the tool's answer. A blank
// result says the call returned nothing, as some servers refuse blank
// content.
func TestToolResultText(t *testing.T) {
	tests := []struct {
		name   string
		result contract.ToolResult
		want   string
	}{
		{name: "success", result: contract.ToolResult{Name: "get_weather", Content: "18C"}, want: "18C"},
		{name: "blank success", result: contract.ToolResult{Name: "get_weather", Content: ""},
			want: "the call of get_weather returned nothing"},
		{name: "failure", result: contract.ToolResult{Name: "get_weather", Content: "city not found", IsError: true},
			want: "the call of get_weather failed: city not found"},
		{name: "blank failure", result: contract.ToolResult{Name: "get_weather", Content: " \n", IsError: true},
			want: "the call of get_weather failed and said nothing more"},
		{name: "unnamed failure", result: contract.ToolResult{Content: "timeout", IsError: true},
			want: "the tool call failed: timeout"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			tt.result.CallID = "call_1"
			req := basicRequest()
			req.History = contract.HistoryOf(
				contract.UserText("Weather in Paris?"),
				contract.Turn{Role: contract.RoleAssistant, Blocks: []contract.Block{contract.CallBlock(contract.ToolCall{ID: "call_1", Name: "get_weather", Arguments: `{"city":"Paris"}`})}},
				contract.Turn{Role: contract.RoleTool, Blocks: []contract.Block{contract.ResultBlock(tt.result)}},
			)
			msgs := suite.Sent(t, req, "messages")["messages"].([]any)
			want := map[string]any{"role": "tool", "tool_call_id": "call_1", "content": tt.want}
			if diff := cmp.Diff(want, msgs[len(msgs)-1]); diff != "" {
				t.Errorf("tool message mismatch (-want +got):\n%s", diff)
			}
		})
	}
}
