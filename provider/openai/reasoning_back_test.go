package openai

import (
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/batonrt/baton/contract"
)

// TestReasoningSentBack: DeepSeek's thinking mode and Kimi's thinking
// models refuse a request whose assistant message with tool calls lacks
// the reasoning the model wrote before them ("Missing reasoning_content
// field in the assistant message", "thinking is enabled but
// reasoning_content is missing in assistant tool call message"), so
// every tool loop failed at its second request. At their APIs such a
// message goes with its reasoning as reasoning_content; elsewhere, where servers refuse the member
// (Cerebras, OpenAI itself), it goes without.
func TestReasoningSentBack(t *testing.T) {
	req := basicRequest()
	call := contract.ToolCall{ID: "call_1", Name: "get_weather", Arguments: `{"city":"Paris"}`}
	req.History = req.History.
		Append(contract.Turn{Role: contract.RoleAssistant, Blocks: []contract.Block{
			{Kind: contract.BlockThinking, Text: "The user wants "}, {Kind: contract.BlockThinking, Text: "the weather."},
			contract.CallBlock(call),
		}}).
		Append(contract.Turn{Role: contract.RoleTool, Blocks: []contract.Block{contract.ResultBlock(contract.ToolResult{CallID: "call_1", Name: "get_weather", Content: "sunny"})}}).
		Append(contract.Turn{Role: contract.RoleAssistant, Blocks: []contract.Block{contract.TextBlock("Sunny.")}}).
		Append(contract.UserText("Thanks."))
	for _, tt := range []struct {
		base string
		want []any // the reasoning_content of each assistant message
	}{
		{"https://api.deepseek.com", []any{"The user wants the weather.", nil}},
		{"https://api.deepseek.com/v1", []any{"The user wants the weather.", nil}},
		{"https://api.moonshot.ai/v1", []any{"The user wants the weather.", nil}},
		{"https://API.Moonshot.cn./v1", []any{"The user wants the weather.", nil}},
		{"", []any{nil, nil}},
		{DefaultBaseURL, []any{nil, nil}},
		{"https://api.cerebras.ai/v1", []any{nil, nil}},
	} {
		var got []any
		for _, m := range suiteAt(tt.base).Sent(t, req, "messages")["messages"].([]any) {
			if msg := m.(map[string]any); msg["role"] == "assistant" {
				got = append(got, msg["reasoning_content"])
			}
		}
		if diff := cmp.Diff(tt.want, got); diff != "" {
			t.Errorf("at %q: reasoning_content (-want +got):\n%s", tt.base, diff)
		}
	}
}
