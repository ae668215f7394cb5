package anthropic

import (
	"flag"
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/batonrt/baton/contract"
	"github.com/batonrt/baton/turn"
	"github.com/batonrt/baton/turn/endpoint"
	"github.com/batonrt/baton/turn/transcripttest"
)

var update = flag.Bool("update", false, "rewrite golden files")

// richRequest covers every block kind and role the mapping knows.
func richRequest() contract.ModelRequest {
	return transcripttest.RichRequest("claude-sonnet-4-5", contract.Block{Kind: contract.BlockImage, Image: &contract.ImageRef{URI: "data:image/png;base64,iVBORw0KGgo="}})
}

// TestRequestGolden checks the exact JSON the provider puts on the wire.
func TestRequestGolden(t *testing.T) {
	suite.Golden(t, richRequest(), "request.golden.json", *update)
}

func TestKeys(t *testing.T) {
	suite.Keys(t, transcripttest.Keys{
		New:        func(opts ...endpoint.Option) turn.Provider { return New(opts...) },
		NewFromEnv: func(opts ...endpoint.Option) turn.Provider { return NewFromEnv(opts...) },
		URLVar:     "ANTHROPIC_BASE_URL", KeyVar: "ANTHROPIC_API_KEY",
		Header: "X-Api-Key", Sent: func(key string) string { return key },
	})
}

func TestBadRequestNeverSent(t *testing.T) {
	suite.BadRequests(t, ErrBadRequest, []transcripttest.BadRequest{
		{Name: "no model", Edit: func(r *contract.ModelRequest) { r.Model = "" }},
		{Name: "bad schema", Edit: func(r *contract.ModelRequest) { r.Tools[0].InputSchema = []byte(`[1,2`) }},
		{Name: "schema not an object", Edit: func(r *contract.ModelRequest) { r.Tools[0].InputSchema = []byte(`{"type":"string"}`) }},
		{Name: "image data not base64", Edit: func(r *contract.ModelRequest) {
			r.History = r.History.Append(contract.Turn{Role: contract.RoleUser, Blocks: []contract.Block{{Kind: contract.BlockImage, Image: &contract.ImageRef{URI: "data:text/plain,hi"}}}})
		}},
		{Name: "bad role", Edit: func(r *contract.ModelRequest) {
			r.History = r.History.Append(contract.Turn{Role: "narrator", Blocks: []contract.Block{contract.TextBlock("x")}})
		}},
	})
}

// TestRequestOutputGolden: an output schema asks for the API's native
// structured output.
func TestRequestOutputGolden(t *testing.T) {
	req := basicRequest()
	req.Output = &contract.OutputSchema{Name: "forecast", Schema: []byte(`{"type":"object","properties":{"city":{"type":"string"},"temp_c":{"type":"number"}},"required":["city","temp_c"]}`)}
	suite.Golden(t, req, "request_output.golden.json", *update)
}

// TestBlankTextNeverSent: the API refuses a text block that is empty or
// only whitespace ("text content blocks must contain non-whitespace
// text"). Models do write "\n\n" before a tool call, and a tool that
// printed nothing has an empty result; both must go without the block.
func TestBlankTextNeverSent(t *testing.T) {
	for _, result := range []string{"", "\n"} {
		req := basicRequest()
		call := contract.ToolCall{ID: "toolu_1", Name: "get_weather", Arguments: `{"city":"Paris"}`}
		req.History = req.History.
			Append(contract.Turn{Role: contract.RoleAssistant, Blocks: []contract.Block{contract.TextBlock("\n\n"), contract.CallBlock(call)}}).
			Append(contract.Turn{Role: contract.RoleTool, Blocks: []contract.Block{contract.ResultBlock(contract.ToolResult{CallID: "toolu_1", Name: "get_weather", Content: result})}})
		msgs := suite.Sent(t, req, "messages")["messages"].([]any)
		want := []any{
			map[string]any{"role": "assistant", "content": []any{map[string]any{"type": "tool_use", "id": "toolu_1", "name": "get_weather", "input": map[string]any{"city": "Paris"}}}},
			map[string]any{"role": "user", "content": []any{map[string]any{"type": "tool_result", "tool_use_id": "toolu_1", "is_error": false}}},
		}
		if diff := cmp.Diff(want, msgs[len(msgs)-2:]); diff != "" {
			t.Errorf("result %q: mismatch (-want +got):\n%s", result, diff)
		}
	}
}
