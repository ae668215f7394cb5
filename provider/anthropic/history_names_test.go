package anthropic

import (
	"regexp"
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/batonrt/baton/contract"
)

// wireName is the pattern the Messages API checks tool_use ids and names
// and tool_result ids against ("String should match pattern").
var wireName = regexp.MustCompile(`^[a-zA-Z0-9_-]+$`)

// TestHistoryCallsTheAPIAccepts: a history may hold a call by a name the
// model made up (answered "unknown tool"), or a call id from another
// server (Kimi's are "functions.get_weather:0"). Both must go in a form
// the API accepts, the result naming its call by the same id.
func TestHistoryCallsTheAPIAccepts(t *testing.T) {
	req := basicRequest()
	call := contract.ToolCall{ID: "functions.get_weather:0", Name: "web.search", Arguments: `{}`}
	req.History = req.History.
		Append(contract.Turn{Role: contract.RoleAssistant, Blocks: []contract.Block{contract.CallBlock(call)}}).
		Append(contract.Turn{Role: contract.RoleTool, Blocks: []contract.Block{contract.ResultBlock(contract.ToolResult{CallID: call.ID, Name: call.Name, Content: "error: unknown tool", IsError: true})}})
	msgs := suite.Sent(t, req, "messages")["messages"].([]any)
	use := msgs[len(msgs)-2].(map[string]any)["content"].([]any)[0].(map[string]any)
	result := msgs[len(msgs)-1].(map[string]any)["content"].([]any)[0].(map[string]any)
	got := []string{use["id"].(string), use["name"].(string), result["tool_use_id"].(string)}
	for _, s := range got {
		if !wireName.MatchString(s) {
			t.Errorf("sent %q, which the API refuses", s)
		}
	}
	if diff := cmp.Diff(got[0], got[2]); diff != "" {
		t.Errorf("tool_result id differs from its tool_use id (-use +result):\n%s", diff)
	}
}
