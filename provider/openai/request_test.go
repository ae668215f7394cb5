package openai

import (
	"flag"
	"testing"

	"github.com/batonrt/baton/contract"
	"github.com/batonrt/baton/turn"
	"github.com/batonrt/baton/turn/endpoint"
	"github.com/batonrt/baton/turn/transcripttest"
)

var update = flag.Bool("update", false, "rewrite golden files")

// richRequest covers every block kind and role the mapping knows.
func richRequest() contract.ModelRequest { return transcripttest.RichRequest("o4-mini") }

// TestRequestGolden checks the exact JSON the provider puts on the wire.
func TestRequestGolden(t *testing.T) {
	suite.Golden(t, richRequest(), "request.golden.json", *update)
}

func TestKeys(t *testing.T) {
	suite.Keys(t, transcripttest.Keys{
		New:        func(opts ...endpoint.Option) turn.Provider { return New(opts...) },
		NewFromEnv: func(opts ...endpoint.Option) turn.Provider { return NewFromEnv(opts...) },
		URLVar:     "OPENAI_BASE_URL", KeyVar: "OPENAI_API_KEY",
		Header: "Authorization", Sent: func(key string) string { return "Bearer " + key },
	})
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
