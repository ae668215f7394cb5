package anthropic

import (
	"encoding/json"
	"strconv"
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/batonrt/baton/contract"
)

// TestCallIDsUniqueInRequest: the API refuses a request in which two
// tool_use blocks share an id ("tool_use ids must be unique"), and
// compatible servers write the same id in every reply (call_0), or twice
// in one, so a session begun with one and carried on with Claude would
// fail on every turn. An id already used in the request goes with a
// suffix, and its result with it: each result still answers the call it
// answered.
func TestCallIDsUniqueInRequest(t *testing.T) {
	req := basicRequest()
	n := 0
	for _, ids := range [][]string{{"call_0"}, {"call_0", "call_0"}, {"call_0_2", "call_1"}} {
		var calls, results []contract.Block
		for _, id := range ids {
			n++
			args := `{"city":"` + strconv.Itoa(n) + `"}`
			calls = append(calls, contract.CallBlock(contract.ToolCall{ID: id, Name: "get_weather", Arguments: args}))
			results = append(results, contract.ResultBlock(contract.ToolResult{CallID: id, Name: "get_weather", Content: "answers " + args}))
		}
		req.History = req.History.
			Append(contract.Turn{Role: contract.RoleAssistant, Blocks: calls}).
			Append(contract.Turn{Role: contract.RoleTool, Blocks: results})
	}
	raw, err := json.Marshal(suite.Sent(t, req, "messages")["messages"])
	if err != nil {
		t.Fatal(err)
	}
	var msgs []struct {
		Role    string `json:"role"`
		Content []struct {
			Type      string          `json:"type"`
			ID        string          `json:"id"`
			Input     json.RawMessage `json:"input"`
			ToolUseID string          `json:"tool_use_id"`
			Content   []struct {
				Text string `json:"text"`
			} `json:"content"`
		} `json:"content"`
	}
	if err := json.Unmarshal(raw, &msgs); err != nil {
		t.Fatal(err)
	}
	seen := map[string]bool{}
	var ids []string
	byID := map[string]string{} // a call's id: what its result must say
	for _, m := range msgs {
		for _, b := range m.Content {
			switch b.Type {
			case "tool_use":
				if seen[b.ID] {
					t.Errorf("tool_use id %q sent twice", b.ID)
				}
				seen[b.ID] = true
				ids = append(ids, b.ID)
				byID[b.ID] = "answers " + string(b.Input)
			case "tool_result":
				if len(b.Content) != 1 || b.Content[0].Text != byID[b.ToolUseID] {
					t.Errorf("result for %q says %+v, want %q", b.ToolUseID, b.Content, byID[b.ToolUseID])
				}
			}
		}
	}
	if len(ids) != 5 || ids[0] != "call_0" || ids[4] != "call_1" {
		t.Errorf("tool_use ids %q: the first of each id should keep it", ids)
	}
	if diff := cmp.Diff(5, len(seen)); diff != "" {
		t.Errorf("distinct ids (-want +got):\n%s", diff)
	}
}
