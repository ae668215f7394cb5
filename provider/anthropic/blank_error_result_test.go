package anthropic

import (
	"strings"
	"testing"

	"github.com/batonrt/baton/contract"
)

// TestBlankErrorResultSays: the API refuses a tool_result flagged as an
// error that has no content ("content cannot be empty if is_error is
// true"), so a failed call that said nothing, or only whitespace, goes
// with a line saying it failed, and stays flagged.
func TestBlankErrorResultSays(t *testing.T) {
	for _, result := range []string{"", " \n"} {
		req := basicRequest()
		call := contract.ToolCall{ID: "toolu_1", Name: "get_weather", Arguments: `{"city":"Paris"}`}
		req.History = req.History.
			Append(contract.Turn{Role: contract.RoleAssistant, Blocks: []contract.Block{contract.CallBlock(call)}}).
			Append(contract.Turn{Role: contract.RoleTool, Blocks: []contract.Block{contract.ResultBlock(contract.ToolResult{CallID: "toolu_1", Name: "get_weather", Content: result, IsError: true})}})
		msgs := suite.Sent(t, req, "messages")["messages"].([]any)
		last := msgs[len(msgs)-1].(map[string]any)["content"].([]any)[0].(map[string]any)
		if last["type"] != "tool_result" || last["is_error"] != true {
			t.Fatalf("result %q: sent %v", result, last)
		}
		content, ok := last["content"].([]any)
		if !ok || len(content) != 1 {
			t.Fatalf("result %q: content %v, want one text block", result, last["content"])
		}
		text, _ := content[0].(map[string]any)["text"].(string)
		if strings.TrimSpace(text) == "" || !strings.Contains(text, "get_weather") {
			t.Errorf("result %q: sent text %q, want a line naming the failed call", result, text)
		}
	}
}
