package openai

import (
	"encoding/json"
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/batonrt/baton/contract"
)

// TestBlankTurnsLeftOut: a user turn with nothing to say is not sent, nor
// is the blank text a model writes before a call, as servers such as LM
// Studio's refuse blank content.
func TestBlankTurnsLeftOut(t *testing.T) {
	call := contract.CallBlock(contract.ToolCall{ID: "call_1", Name: "get_weather", Arguments: `{"city":"Paris"}`})
	result := contract.ResultBlock(contract.ToolResult{CallID: "call_1", Name: "get_weather", Content: "18C"})
	toolCall := map[string]any{"id": "call_1", "type": "function", "function": map[string]any{"name": "get_weather", "arguments": `{"city":"Paris"}`}}
	tests := []struct {
		name  string
		turns []contract.Turn
		want  []any
	}{
		{name: "blank user turns", turns: []contract.Turn{
			{Role: contract.RoleUser},
			contract.UserText(" \n"),
			contract.UserText("Rain?"),
		}, want: []any{
			map[string]any{"role": "user", "content": "Rain?"},
		}},
		{name: "blank text before a call", turns: []contract.Turn{
			contract.UserText("Rain?"),
			{Role: contract.RoleAssistant, Blocks: []contract.Block{contract.TextBlock("\n\n"), call}},
			{Role: contract.RoleTool, Blocks: []contract.Block{result, contract.TextBlock(" ")}},
		}, want: []any{
			map[string]any{"role": "user", "content": "Rain?"},
			map[string]any{"role": "assistant", "tool_calls": []any{toolCall}},
			map[string]any{"role": "tool", "tool_call_id": "call_1", "content": "18C"},
		}},
		{name: "an image with blank text", turns: []contract.Turn{
			{Role: contract.RoleUser, Blocks: []contract.Block{contract.TextBlock(" "), {Kind: contract.BlockImage, Image: &contract.ImageRef{URI: "https://example.com/sky.png"}}}},
		}, want: []any{
			map[string]any{"role": "user", "content": []any{
				map[string]any{"type": "image_url", "image_url": map[string]any{"url": "https://example.com/sky.png"}},
			}},
		}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			req := basicRequest()
			req.History = contract.HistoryOf(tt.turns...)
			msgs := suite.Sent(t, req, "messages")["messages"]
			if diff := cmp.Diff(tt.want, msgs); diff != "" {
				b, _ := json.Marshal(msgs)
				t.Errorf("messages mismatch (-want +got):\n%s\nsent: %s", diff, b)
			}
		})
	}
}
