package anthropic

import (
	"context"
	"encoding/json"
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/batonrt/baton/contract"
	"github.com/batonrt/baton/turn"
)

// redactedData is the opaque data of the block in
// testdata/redacted_thinking.sse.
const redactedData = "EmwKAhgBEgy3va3pzix/LafPsn4aDFIT2Xlxh0L5L8rLVyIwxtE3rAFBa8cr3qpPkNRj2YfWXGmKDxH4mPnZ5sQ7vB5URj2pmJ4Q+p8nU0Jw=="

// TestRedactedThinkingRoundTrip runs the two model calls of a tool loop
// through the driver: the first reply keeps its redacted thinking block,
// and the request that continues after the tool result sends that block
// back before the tool_use, with its data unchanged, as the API demands.
func TestRedactedThinkingRoundTrip(t *testing.T) {
	srv, p := suite.Serve(t, "redacted_thinking")
	d := turn.NewDriver(p, turn.Options{MaxRetries: turn.NoRetries})
	req := basicRequest()

	first, ok := d.Run(context.Background(), req, nil).(contract.ModelReplied)
	if !ok {
		t.Fatalf("first call did not reply")
	}
	wantReply := contract.Turn{Role: contract.RoleAssistant, Blocks: []contract.Block{
		{Kind: contract.BlockRedactedThinking, Signature: redactedData},
		contract.CallBlock(contract.ToolCall{ID: "toolu_01Redacted", Name: "get_weather", Arguments: `{"city": "Paris"}`}),
	}}
	if diff := cmp.Diff(wantReply, first.Reply); diff != "" {
		t.Fatalf("reply mismatch (-want +got):\n%s", diff)
	}

	req.History = req.History.Append(first.Reply).Append(contract.Turn{Role: contract.RoleTool, Blocks: []contract.Block{
		contract.ResultBlock(contract.ToolResult{CallID: "toolu_01Redacted", Name: "get_weather", Content: "18C, cloudy"}),
	}})
	second, ok := d.Run(context.Background(), req, nil).(contract.ModelReplied)
	if !ok || second.Reply.Text() != "18C and cloudy in Paris." {
		t.Fatalf("second call: %#v", second)
	}

	var body struct {
		Messages []struct {
			Role    string            `json:"role"`
			Content []json.RawMessage `json:"content"`
		} `json:"messages"`
	}
	if err := json.Unmarshal(srv.Request(1), &body); err != nil {
		t.Fatal(err)
	}
	if len(body.Messages) != 3 || body.Messages[1].Role != "assistant" || len(body.Messages[1].Content) != 2 {
		t.Fatalf("second request messages: %s", srv.Request(1))
	}
	want := `{"data":"` + redactedData + `","type":"redacted_thinking"}`
	if got := string(body.Messages[1].Content[0]); got != want {
		t.Errorf("assistant's first block sent back as\n%s\nwant\n%s", got, want)
	}
}

func TestRedactedThinkingOnlyFromAssistant(t *testing.T) {
	blocks := []contract.Block{{Kind: contract.BlockRedactedThinking, Signature: redactedData}, {Kind: contract.BlockRedactedThinking}}
	tests := []struct {
		name string
		role contract.Role
		want int
	}{
		{"assistant keeps the block with data", contract.RoleAssistant, 1},
		{"user turn drops it", contract.RoleUser, 0},
		{"tool turn drops it", contract.RoleTool, 0},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got, err := contentBlocks(contract.Turn{Role: tt.role, Blocks: blocks})
			if err != nil {
				t.Fatal(err)
			}
			if len(got) != tt.want {
				t.Fatalf("got %d blocks, want %d", len(got), tt.want)
			}
			if tt.want == 1 && (got[0].OfRedactedThinking == nil || got[0].OfRedactedThinking.Data != redactedData) {
				t.Errorf("block %+v, want redacted thinking with the data", got[0])
			}
		})
	}
}
