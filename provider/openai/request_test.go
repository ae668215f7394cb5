package openai

import (
	"context"
	"flag"
	"net/http"
	"path/filepath"
	"testing"

	"github.com/batonrt/baton/contract"
	"github.com/batonrt/baton/provider/internal/replay"
	"github.com/batonrt/baton/turn"
)

var update = flag.Bool("update", false, "rewrite golden files")

// richRequest covers every block kind and role the mapping knows.
func richRequest() contract.ModelRequest {
	req := basicRequest()
	req.System = "You are terse."
	req.Thinking = contract.ThinkingMedium
	req.Tools = append(req.Tools, contract.ToolDescriptor{Name: "get_time"})
	req.History = contract.HistoryOf(
		contract.Turn{Role: contract.RoleUser, Blocks: []contract.Block{
			contract.TextBlock("What is in this picture, and the weather in Paris and Tokyo?"),
			{Kind: contract.BlockImage, Image: &contract.ImageRef{URI: "https://example.com/cat.png", MediaType: "image/png"}},
		}},
		contract.Turn{Role: contract.RoleAssistant, Blocks: []contract.Block{
			{Kind: contract.BlockThinking, Text: "Two lookups.", Signature: "sig-1"},
			contract.TextBlock("A cat. Checking the weather."),
			contract.CallBlock(contract.ToolCall{ID: "call_1", Name: "get_weather", Arguments: `{"city":"Paris"}`}),
			contract.CallBlock(contract.ToolCall{ID: "call_2", Name: "get_weather", Arguments: `{"city": "Tokyo"`}),
		}},
		contract.Turn{Role: contract.RoleTool, Blocks: []contract.Block{
			contract.ResultBlock(contract.ToolResult{CallID: "call_1", Name: "get_weather", Content: "18C, cloudy"}),
			contract.ResultBlock(contract.ToolResult{CallID: "call_2", Name: "get_weather", Content: "malformed arguments", IsError: true}),
		}},
		contract.Turn{Role: contract.RoleUser, Mark: contract.MarkSteer, Blocks: []contract.Block{contract.TextBlock("Only Paris, please.")}},
		contract.Turn{Role: contract.RoleAssistant, Blocks: []contract.Block{{Kind: contract.BlockThinking, Text: "Only thinking."}}},
		contract.UserText("Thanks."),
	)
	return req
}

// TestRequestGolden checks the exact JSON the provider puts on the wire.
func TestRequestGolden(t *testing.T) {
	keyed := suite
	keyed.Dial = func(url string, c *http.Client) turn.Provider {
		return New(WithBaseURL(url), WithHTTPClient(c), WithAPIKey("sk-test"))
	}
	srv := keyed.Golden(t, richRequest(), "request.golden.json", *update)
	if h := srv.Header(0).Get("Authorization"); h != "Bearer sk-test" {
		t.Errorf("Authorization = %q, want the bearer key", h)
	}
}

func TestNoKeyNoAuthorization(t *testing.T) {
	srv, p := suite.Serve(t, "text")
	if _, err := replay.Collect(context.Background(), p, basicRequest()); err != nil {
		t.Fatal(err)
	}
	if h := srv.Header(0).Get("Authorization"); h != "" {
		t.Errorf("Authorization = %q, want none without a key", h)
	}
}

func TestNewFromEnv(t *testing.T) {
	srv := replay.ServeFile(t, filepath.Join("testdata", "text.sse"))
	t.Setenv("OPENAI_BASE_URL", srv.URL)
	t.Setenv("OPENAI_API_KEY", "sk-env")
	p := NewFromEnv(WithHTTPClient(srv.Client()))
	got, err := replay.Collect(context.Background(), p, basicRequest())
	if err != nil {
		t.Fatal(err)
	}
	if len(got) != len(helloChunks) {
		t.Errorf("got %d chunks, want %d", len(got), len(helloChunks))
	}
	if h := srv.Header(0).Get("Authorization"); h != "Bearer sk-env" {
		t.Errorf("Authorization = %q, want the key from the environment", h)
	}
}

func TestBadRequestNeverSent(t *testing.T) {
	suite.BadRequests(t, ErrBadRequest, []replay.BadRequest{
		{Name: "no model", Edit: func(r *contract.ModelRequest) { r.Model = "" }},
		{Name: "bad schema", Edit: func(r *contract.ModelRequest) { r.Tools[0].InputSchema = []byte(`[1,2`) }},
		{Name: "bad role", Edit: func(r *contract.ModelRequest) {
			r.History = r.History.Append(contract.Turn{Role: "narrator", Blocks: []contract.Block{contract.TextBlock("x")}})
		}},
	})
}
