package openai

import (
	"regexp"
	"slices"
	"testing"

	"github.com/batonrt/baton/contract"
)

// functionName is the pattern Chat Completions checks every
// tool_calls[].function.name of the history against; it answers 400
// ("string does not match pattern") otherwise.
var functionName = regexp.MustCompile(`^[a-zA-Z0-9_-]{1,64}$`)

// TestHistoryToolNamesTheAPIAccepts: a model may call a tool by a name no
// tool has, spaces or dots in it; the call stays in history with an
// "unknown tool" result and the run goes on. The name must go back in a
// form the API accepts, or every later request of the session is
// refused, and not as the name of a tool the agent has.
func TestHistoryToolNamesTheAPIAccepts(t *testing.T) {
	req := basicRequest()
	req.History = contract.HistoryOf(contract.UserText("Weather in Paris?"))
	names := []string{"get weather", "", "web.search", "get_weather"}
	for i, name := range names {
		id := string(rune('a' + i))
		req.History = req.History.
			Append(contract.Turn{Role: contract.RoleAssistant, Blocks: []contract.Block{contract.CallBlock(contract.ToolCall{ID: id, Name: name, Arguments: `{}`})}}).
			Append(contract.Turn{Role: contract.RoleTool, Blocks: []contract.Block{contract.ResultBlock(contract.ToolResult{CallID: id, Name: name, Content: "error: unknown tool", IsError: true})}})
	}
	msgs, _ := suite.Sent(t, req, "messages")["messages"].([]any)
	var sent []string
	for _, m := range msgs {
		tcs, _ := m.(map[string]any)["tool_calls"].([]any)
		for _, tc := range tcs {
			name, _ := tc.(map[string]any)["function"].(map[string]any)["name"].(string)
			if !functionName.MatchString(name) {
				t.Errorf("history call sent as %q, which the API refuses", name)
			}
			sent = append(sent, name)
		}
	}
	if len(sent) != len(names) {
		t.Fatalf("sent %d calls, want %d: %v", len(sent), len(names), msgs)
	}
	if sent[0] == "get_weather" || sent[3] != "get_weather" {
		t.Errorf("names %q: an unknown name must not pass for a tool the agent has, and a valid one must go as it is", sent)
	}
	if distinct := len(slices.Compact(slices.Sorted(slices.Values(sent)))); distinct != len(names) {
		t.Errorf("names %q: %d distinct, want %d", sent, distinct, len(names))
	}
}
