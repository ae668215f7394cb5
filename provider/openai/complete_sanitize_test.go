package openai

import (
	"context"
	"encoding/json"
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/batonrt/baton/contract"
	"github.com/batonrt/baton/turn/endpoint"
	"github.com/batonrt/baton/turn/transcripttest"
)

// TestCompleteSanitizes: Complete called on its own, without the driver,
// sends a call's result right after it even when the history has a note
// in between, since the API refuses a tool message anywhere else.
func TestCompleteSanitizes(t *testing.T) {
	srv := transcripttest.ServeBody(t, "application/json", `{"id":"c","object":"chat.completion","created":1,"model":"m","choices":[{"index":0,"finish_reason":"stop","message":{"role":"assistant","content":"Fine."}}]}`)
	req := basicRequest()
	req.History = contract.HistoryOf(
		contract.UserText("Weather in Paris?"),
		contract.Turn{Role: contract.RoleAssistant, Blocks: []contract.Block{contract.CallBlock(contract.ToolCall{ID: "call_1", Name: "get_weather", Arguments: `{}`})}},
		contract.UserText("Hurry."),
		contract.Turn{Role: contract.RoleTool, Blocks: []contract.Block{contract.ResultBlock(contract.ToolResult{CallID: "call_1", Content: "18C"})}},
	)
	if _, err := New(endpoint.BaseURL(srv.URL), endpoint.HTTPClient(srv.Client())).Complete(context.Background(), req); err != nil {
		t.Fatal(err)
	}
	var body struct {
		Messages []struct {
			Role string `json:"role"`
		} `json:"messages"`
	}
	if err := json.Unmarshal(srv.Request(0), &body); err != nil {
		t.Fatal(err)
	}
	var roles []string
	for _, m := range body.Messages {
		roles = append(roles, m.Role)
	}
	if diff := cmp.Diff([]string{"user", "assistant", "tool", "user"}, roles); diff != "" {
		t.Errorf("roles sent mismatch (-want +got):\n%s", diff)
	}
}
