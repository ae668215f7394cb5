package openai

import (
	"encoding/json"
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/batonrt/baton/contract"
)

// TestRedactedThinkingDropped checks that Anthropic's redacted thinking,
// which Chat Completions has no place for, leaves no trace in the request:
// the body equals that of the same history without those blocks, and an
// assistant turn holding nothing else is left out.
func TestRedactedThinkingDropped(t *testing.T) {
	redacted := contract.Block{Kind: contract.BlockRedactedThinking, Signature: "EnC0=="}
	call := contract.CallBlock(contract.ToolCall{ID: "call_1", Name: "get_weather", Arguments: `{"city":"Paris"}`})
	result := contract.ResultBlock(contract.ToolResult{CallID: "call_1", Name: "get_weather", Content: "18C"})
	with := contract.HistoryOf(
		contract.Turn{Role: contract.RoleUser, Blocks: []contract.Block{contract.TextBlock("Weather?"), redacted}},
		contract.Turn{Role: contract.RoleAssistant, Blocks: []contract.Block{redacted, call}},
		contract.Turn{Role: contract.RoleTool, Blocks: []contract.Block{result}},
		contract.Turn{Role: contract.RoleAssistant, Blocks: []contract.Block{redacted}},
		contract.UserText("Thanks."),
	)
	without := contract.HistoryOf(
		contract.UserText("Weather?"),
		contract.Turn{Role: contract.RoleAssistant, Blocks: []contract.Block{call}},
		contract.Turn{Role: contract.RoleTool, Blocks: []contract.Block{result}},
		contract.UserText("Thanks."),
	)
	body := func(h contract.History) string {
		req := basicRequest()
		req.History = h
		p, err := buildParams(req, RulesByHost.at(true))
		if err != nil {
			t.Fatal(err)
		}
		b, err := json.Marshal(p)
		if err != nil {
			t.Fatal(err)
		}
		return string(b)
	}
	if diff := cmp.Diff(body(without), body(with)); diff != "" {
		t.Errorf("mismatch (-want +got):\n%s", diff)
	}
}
