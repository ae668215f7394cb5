package anthropic

import (
	"context"
	"flag"
	"net/http"
	"path/filepath"
	"testing"

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
	keyed := suite
	keyed.Dial = func(url string, c *http.Client) turn.Provider {
		return New(endpoint.BaseURL(url), endpoint.HTTPClient(c), endpoint.APIKey("sk-ant-test"))
	}
	srv := keyed.Golden(t, richRequest(), "request.golden.json", *update)
	if h := srv.Header(0).Get("X-Api-Key"); h != "sk-ant-test" {
		t.Errorf("x-api-key = %q, want the key", h)
	}
}

func TestNoKeyNoAuthorization(t *testing.T) {
	srv, p := suite.Serve(t, "text")
	if _, err := transcripttest.Collect(context.Background(), p, basicRequest()); err != nil {
		t.Fatal(err)
	}
	if h := srv.Header(0).Get("X-Api-Key"); h != "" {
		t.Errorf("x-api-key = %q, want none without a key", h)
	}
}

func TestNewFromEnv(t *testing.T) {
	srv := transcripttest.ServeFile(t, filepath.Join("testdata", "text.sse"))
	t.Setenv("ANTHROPIC_BASE_URL", srv.URL)
	t.Setenv("ANTHROPIC_API_KEY", "sk-ant-env")
	p := NewFromEnv(endpoint.HTTPClient(srv.Client()))
	got, err := transcripttest.Collect(context.Background(), p, basicRequest())
	if err != nil {
		t.Fatal(err)
	}
	if len(got) != len(helloChunks) {
		t.Errorf("got %d chunks, want %d", len(got), len(helloChunks))
	}
	if h := srv.Header(0).Get("X-Api-Key"); h != "sk-ant-env" {
		t.Errorf("x-api-key = %q, want the key from the environment", h)
	}
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
