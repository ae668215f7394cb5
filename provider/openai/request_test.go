package openai

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
func richRequest() contract.ModelRequest { return transcripttest.RichRequest("gpt-4o-mini") }

// TestRequestGolden checks the exact JSON the provider puts on the wire.
func TestRequestGolden(t *testing.T) {
	keyed := suite
	keyed.Dial = func(url string, c *http.Client) turn.Provider {
		return New(endpoint.BaseURL(url), endpoint.HTTPClient(c), endpoint.APIKey("sk-test"))
	}
	srv := keyed.Golden(t, richRequest(), "request.golden.json", *update)
	if h := srv.Header(0).Get("Authorization"); h != "Bearer sk-test" {
		t.Errorf("Authorization = %q, want the bearer key", h)
	}
}

func TestNoKeyNoAuthorization(t *testing.T) {
	srv, p := suite.Serve(t, "text")
	if _, err := transcripttest.Collect(context.Background(), p, basicRequest()); err != nil {
		t.Fatal(err)
	}
	if h := srv.Header(0).Get("Authorization"); h != "" {
		t.Errorf("Authorization = %q, want none without a key", h)
	}
}

func TestNewFromEnv(t *testing.T) {
	srv := transcripttest.ServeFile(t, filepath.Join("testdata", "text.sse"))
	t.Setenv("OPENAI_BASE_URL", srv.URL)
	t.Setenv("OPENAI_API_KEY", "sk-env")
	p := NewFromEnv(endpoint.HTTPClient(srv.Client()))
	got, err := transcripttest.Collect(context.Background(), p, basicRequest())
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
	suite.BadRequests(t, ErrBadRequest, []transcripttest.BadRequest{
		{Name: "no model", Edit: func(r *contract.ModelRequest) { r.Model = "" }},
		{Name: "bad schema", Edit: func(r *contract.ModelRequest) { r.Tools[0].InputSchema = []byte(`[1,2`) }},
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
