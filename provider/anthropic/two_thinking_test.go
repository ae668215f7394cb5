package anthropic

import (
	"context"
	"encoding/json"
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/batonrt/baton/contract"
	"github.com/batonrt/baton/turn"
)

// TestTwoThinkingBlocksRoundTrip: a reply with two signed thinking blocks
// in a row, then a tool call. The request that continues after the tool
// result sends both blocks back as they came, each with its own
// signature; joined under both signatures, the API would refuse the
// block and the tool loop could not go on.
func TestTwoThinkingBlocksRoundTrip(t *testing.T) {
	srv, p := suite.Serve(t, "two_thinking_blocks")
	d := turn.NewDriver(p, turn.Options{MaxRetries: turn.NoRetries})
	req := basicRequest()
	req.Thinking = contract.ThinkingLow
	first, ok := d.Run(context.Background(), req, nil).(contract.ModelReplied)
	if !ok {
		t.Fatal("first call did not reply")
	}
	req.History = req.History.Append(first.Reply).Append(contract.Turn{Role: contract.RoleTool, Blocks: []contract.Block{
		contract.ResultBlock(contract.ToolResult{CallID: "toolu_01", Name: "get_weather", Content: "18C"}),
	}})
	if _, ok := d.Run(context.Background(), req, nil).(contract.ModelReplied); !ok {
		t.Fatal("second call did not reply")
	}

	var body struct {
		Messages []struct {
			Role    string           `json:"role"`
			Content []map[string]any `json:"content"`
		} `json:"messages"`
	}
	if err := json.Unmarshal(srv.Request(1), &body); err != nil {
		t.Fatal(err)
	}
	if len(body.Messages) != 3 || body.Messages[1].Role != "assistant" {
		t.Fatalf("second request messages: %s", srv.Request(1))
	}
	want := []map[string]any{
		{"type": "thinking", "thinking": "Paris is asked about.", "signature": "sig-A"},
		{"type": "thinking", "thinking": "The tool gives the weather.", "signature": "sig-B"},
		{"type": "tool_use", "id": "toolu_01", "name": "get_weather", "input": map[string]any{"city": "Paris"}},
	}
	if diff := cmp.Diff(want, body.Messages[1].Content); diff != "" {
		t.Errorf("assistant message sent back (-want +got):\n%s", diff)
	}
}
