package openai

import (
	"strings"
	"testing"

	"github.com/batonrt/baton/contract"
)

// TestLongCallIDsShortened: OpenAI refuses a request whose tool call ids
// pass 40 characters ("string_above_max_length"), which ids from other
// servers do (the Responses API's fc_ ids have 53), and a session would
// fail on every turn after such a call. Such an id goes shortened, the
// call and its result alike, and distinct ids stay distinct; an id that
// fits goes as it is.
func TestLongCallIDsShortened(t *testing.T) {
	ids := []string{
		"fc_0f0e50a1476a6c35006912c58dc9f8819192c25864eb16f07f",
		"fc_0f0e50a1476a6c35006912c58dc9f8819192c25864eb16f080",
		"call_short",
	}
	req := basicRequest()
	var calls, results []contract.Block
	for _, id := range ids {
		call := contract.ToolCall{ID: id, Name: "get_weather", Arguments: `{"city":"Paris"}`}
		calls = append(calls, contract.CallBlock(call))
		results = append(results, contract.ResultBlock(contract.ToolResult{CallID: id, Name: "get_weather", Content: "sunny"}))
	}
	req.History = req.History.
		Append(contract.Turn{Role: contract.RoleAssistant, Blocks: calls}).
		Append(contract.Turn{Role: contract.RoleTool, Blocks: results})
	msgs := suite.Sent(t, req, "messages")["messages"].([]any)
	msgs = msgs[len(msgs)-1-len(ids):]
	sentCalls := msgs[0].(map[string]any)["tool_calls"].([]any)
	seen := map[string]bool{}
	for i, id := range ids {
		callID := sentCalls[i].(map[string]any)["id"].(string)
		resultID := msgs[1+i].(map[string]any)["tool_call_id"].(string)
		switch {
		case len(callID) > 40:
			t.Errorf("call %d went with id %q, over 40 characters", i, callID)
		case callID != resultID:
			t.Errorf("call %d went as %q and its result as %q", i, callID, resultID)
		case len(id) <= 40 && callID != id:
			t.Errorf("call %d: id %q went as %q", i, id, callID)
		case seen[callID]:
			t.Errorf("call %d: id %q went as %q, like another call", i, id, callID)
		case !strings.HasPrefix(callID, "call_") && !strings.HasPrefix(callID, "fc_"):
			t.Errorf("call %d: id %q went as %q", i, id, callID)
		}
		seen[callID] = true
	}
}
