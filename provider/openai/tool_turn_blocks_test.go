package openai

import (
	"encoding/json"
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/batonrt/baton/contract"
)

// TestToolTurnKeepsItsOtherBlocks: a tool turn may hold text and images
// beside its results (a tool that returned a screenshot, a note the host
// put with the results). Chat Completions' tool messages take only the
// result text, so the rest goes in a user message after them rather than
// being dropped.
func TestToolTurnKeepsItsOtherBlocks(t *testing.T) {
	call := contract.ToolCall{ID: "call_1", Name: "get_weather", Arguments: `{"city":"Paris"}`}
	result := contract.ResultBlock(contract.ToolResult{CallID: "call_1", Name: "get_weather", Content: "18C"})
	image := contract.Block{Kind: contract.BlockImage, Image: &contract.ImageRef{URI: "https://example.com/map.png"}}
	tests := []struct {
		name string
		tool []contract.Block
		want []any
	}{
		{name: "results only", tool: []contract.Block{result}, want: []any{
			map[string]any{"role": "tool", "tool_call_id": "call_1", "content": "18C"},
		}},
		{name: "text after the results", tool: []contract.Block{result, contract.TextBlock("Also check Lyon.")}, want: []any{
			map[string]any{"role": "tool", "tool_call_id": "call_1", "content": "18C"},
			map[string]any{"role": "user", "content": "Also check Lyon."},
		}},
		{name: "an image after the results", tool: []contract.Block{result, contract.TextBlock("The map:"), image}, want: []any{
			map[string]any{"role": "tool", "tool_call_id": "call_1", "content": "18C"},
			map[string]any{"role": "user", "content": []any{
				map[string]any{"type": "text", "text": "The map:"},
				map[string]any{"type": "image_url", "image_url": map[string]any{"url": "https://example.com/map.png"}},
			}},
		}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			req := basicRequest()
			req.History = contract.HistoryOf(
				contract.UserText("Weather in Paris?"),
				contract.Turn{Role: contract.RoleAssistant, Blocks: []contract.Block{contract.CallBlock(call)}},
				contract.Turn{Role: contract.RoleTool, Blocks: tt.tool},
			)
			msgs := suite.Sent(t, req, "messages")["messages"].([]any)
			if diff := cmp.Diff(tt.want, msgs[2:]); diff != "" {
				b, _ := json.Marshal(msgs)
				t.Errorf("messages after the call mismatch (-want +got):\n%s\nsent: %s", diff, b)
			}
		})
	}
}
