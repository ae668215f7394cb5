package anthropic

import (
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/batonrt/baton/contract"
)

// TestHistoryToolsDefinedWithoutTools: the API refuses a request whose
// messages hold tool_use or tool_result blocks but that defines no
// tools ("Requests which include tool_use or tool_result blocks must
// define tools"), as one does when an agent that called tools goes on
// in a run that offers none. The tools the history called go as tools
// that cannot be called (tool_choice none), each once.
func TestHistoryToolsDefinedWithoutTools(t *testing.T) {
	req := basicRequest()
	req.Tools = nil
	req.Sampling.ToolChoice = contract.ToolChoiceAuto
	for i, name := range []string{"get_weather", "get_weather", "search"} {
		call := contract.ToolCall{ID: "toolu_" + string(rune('1'+i)), Name: name, Arguments: `{}`}
		req.History = req.History.
			Append(contract.Turn{Role: contract.RoleAssistant, Blocks: []contract.Block{contract.CallBlock(call)}}).
			Append(contract.Turn{Role: contract.RoleTool, Blocks: []contract.Block{contract.ResultBlock(contract.ToolResult{CallID: call.ID, Name: name, Content: "done"})}})
	}
	req.History = req.History.Append(contract.UserText("thanks"))
	sent := suite.Sent(t, req, "tools", "tool_choice")
	var names []any
	tools, _ := sent["tools"].([]any)
	for _, tl := range tools {
		m := tl.(map[string]any)
		names = append(names, m["name"])
		if schema, _ := m["input_schema"].(map[string]any); schema["type"] != "object" {
			t.Errorf("tool %v: input_schema %v", m["name"], m["input_schema"])
		}
	}
	if diff := cmp.Diff([]any{"get_weather", "search"}, names); diff != "" {
		t.Errorf("tools sent (-want +got):\n%s", diff)
	}
	if diff := cmp.Diff(map[string]any{"type": "none"}, sent["tool_choice"]); diff != "" {
		t.Errorf("tool_choice (-want +got):\n%s", diff)
	}
}

// TestNoToolsNoHistoryCallsSendsNoTools: a request without tools whose
// history called none sends neither tools nor tool_choice, as before.
func TestNoToolsNoHistoryCallsSendsNoTools(t *testing.T) {
	req := basicRequest()
	req.Tools = nil
	if sent := suite.Sent(t, req, "tools", "tool_choice"); len(sent) != 0 {
		t.Errorf("sent %v", sent)
	}
}
