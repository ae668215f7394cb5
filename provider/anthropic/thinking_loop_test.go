package anthropic

import (
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/batonrt/baton/contract"
)

// TestThinkingStaysOnThroughAToolLoopThatStartedWithIt: without
// interleaved thinking Claude thinks once, at the start of its turn, and
// its replies after tool results carry no thinking block. A tool loop is
// one assistant turn, which the API wants in one thinking configuration,
// and it checks the turn's first assistant message for the thinking
// block, not its last. So a loop whose first reply thought keeps
// thinking on however many calls follow; one whose first reply did not
// (another provider's, or from before thinking was on) goes without it
// to its end.
func TestThinkingStaysOnThroughAToolLoopThatStartedWithIt(t *testing.T) {
	call := func(id string) contract.Block {
		return contract.CallBlock(contract.ToolCall{ID: id, Name: "get_weather", Arguments: `{"city":"Paris"}`})
	}
	result := func(id string) contract.Turn {
		return contract.Turn{Role: contract.RoleTool, Blocks: []contract.Block{contract.ResultBlock(contract.ToolResult{CallID: id, Name: "get_weather", Content: "18C"})}}
	}
	signed := contract.Block{Kind: contract.BlockThinking, Text: "Two lookups.", Signature: "sig"}
	thinking := map[string]any{"max_tokens": 2304.0, "thinking": map[string]any{"type": "enabled", "budget_tokens": 2048.0}}
	tests := []struct {
		name  string
		turns []contract.Turn
		want  map[string]any
	}{
		{"second call of a loop that thought", []contract.Turn{
			{Role: contract.RoleAssistant, Blocks: []contract.Block{signed, call("toolu_1")}}, result("toolu_1"),
			{Role: contract.RoleAssistant, Blocks: []contract.Block{contract.TextBlock("Once more."), call("toolu_2")}}, result("toolu_2"),
		}, thinking},
		{"second call of a loop that did not", []contract.Turn{
			{Role: contract.RoleAssistant, Blocks: []contract.Block{contract.TextBlock("Looking."), call("toolu_1")}}, result("toolu_1"),
			{Role: contract.RoleAssistant, Blocks: []contract.Block{call("toolu_2")}}, result("toolu_2"),
		}, map[string]any{"max_tokens": 256.0}},
		{"a loop after an earlier one that did not think", []contract.Turn{
			{Role: contract.RoleAssistant, Blocks: []contract.Block{call("toolu_1")}}, result("toolu_1"),
			{Role: contract.RoleAssistant, Blocks: []contract.Block{contract.TextBlock("18C.")}},
			contract.UserText("And Rome?"),
			{Role: contract.RoleAssistant, Blocks: []contract.Block{signed, call("toolu_2")}}, result("toolu_2"),
		}, thinking},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			req := basicRequest()
			req.Thinking = contract.ThinkingLow
			for _, turn := range tt.turns {
				req.History = req.History.Append(turn)
			}
			if diff := cmp.Diff(tt.want, suite.Sent(t, req, "max_tokens", "thinking")); diff != "" {
				t.Errorf("mismatch (-want +got):\n%s", diff)
			}
		})
	}
}
