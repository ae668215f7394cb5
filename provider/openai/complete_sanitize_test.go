package openai

import (
	"context"
	"encoding/json"
	"io"
	"net/http"
	"net/http/httptest"
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/batonrt/baton/contract"
	"github.com/batonrt/baton/turn/endpoint"
)

// TestCompleteSanitizes: Complete called on its own, without the driver,
// sends a call's result right after it even when the history has a note
// in between, since the API refuses a tool message anywhere else.
func TestCompleteSanitizes(t *testing.T) {
	var roles []string
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		var body struct {
			Messages []struct {
				Role string `json:"role"`
			} `json:"messages"`
		}
		b, _ := io.ReadAll(r.Body)
		_ = json.Unmarshal(b, &body)
		for _, m := range body.Messages {
			roles = append(roles, m.Role)
		}
		w.Header().Set("Content-Type", "application/json")
		io.WriteString(w, `{"id":"c","object":"chat.completion","created":1,"model":"m","choices":[{"index":0,"finish_reason":"stop","message":{"role":"assistant","content":"Fine."}}]}`)
	}))
	defer srv.Close()
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
	if diff := cmp.Diff([]string{"user", "assistant", "tool", "user"}, roles); diff != "" {
		t.Errorf("roles sent mismatch (-want +got):\n%s", diff)
	}
}
