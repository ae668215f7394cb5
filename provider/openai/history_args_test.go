package openai

import (
	"encoding/json"
	"testing"

	"github.com/batonrt/baton/contract"
)

// TestHistoryToolArgumentsAreJSON: a call whose arguments the model
// wrote broken (or the token limit cut) stays in history, answered with
// an error result, and the run goes on. vLLM parses every
// tool_calls[].function.arguments of the history it is sent with
// json.loads before applying the chat template, and answers 400 when one
// is not JSON, so the next request of such a run always fails. The
// Anthropic mapping sends {} for such a call; this one must send JSON too.
func TestHistoryToolArgumentsAreJSON(t *testing.T) {
	req := basicRequest()
	req.History = contract.HistoryOf(
		contract.UserText("Write notes.txt"),
		contract.Turn{Role: contract.RoleAssistant, Blocks: []contract.Block{
			contract.CallBlock(contract.ToolCall{ID: "call_1", Name: "get_weather", Arguments: `{"city": "Tok`}),
		}},
		contract.Turn{Role: contract.RoleTool, Blocks: []contract.Block{
			contract.ResultBlock(contract.ToolResult{CallID: "call_1", Name: "get_weather", Content: "error: the arguments were cut off", IsError: true}),
		}},
	)
	msgs, _ := suite.Sent(t, req, "messages")["messages"].([]any)
	calls := 0
	for _, m := range msgs {
		tcs, _ := m.(map[string]any)["tool_calls"].([]any)
		for _, tc := range tcs {
			calls++
			args, _ := tc.(map[string]any)["function"].(map[string]any)["arguments"].(string)
			var v map[string]any
			if err := json.Unmarshal([]byte(args), &v); err != nil {
				t.Errorf("history call sent with arguments %q, which vLLM's json.loads refuses: %v", args, err)
			}
		}
	}
	if calls != 1 {
		t.Fatalf("sent %d tool calls, want 1: %v", calls, msgs)
	}
}
