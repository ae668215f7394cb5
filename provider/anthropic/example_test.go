package anthropic_test

import (
	"context"
	"encoding/json"
	"fmt"
	"net/http"
	"net/http/httptest"
	"os"

	"github.com/batonrt/baton/contract"
	"github.com/batonrt/baton/provider/anthropic"
	"github.com/batonrt/baton/turn"
	"github.com/batonrt/baton/turn/endpoint"
)

// ExampleNew streams a reply from the Messages API; here a local
// stand-in plays a short reply. The response chunk comes first, naming
// the model that answered (a dated version of the one asked) and the
// message's id, as message_start does.
func ExampleNew() {
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Content-Type", "text/event-stream")
		for _, ev := range []string{
			`{"type":"message_start","message":{"id":"msg_1","type":"message","role":"assistant","content":[],"model":"claude-haiku-4-5-20251001","usage":{"input_tokens":3,"output_tokens":1}}}`,
			`{"type":"content_block_start","index":0,"content_block":{"type":"text","text":""}}`,
			`{"type":"content_block_delta","index":0,"delta":{"type":"text_delta","text":"Hello."}}`,
			`{"type":"content_block_stop","index":0}`,
			`{"type":"message_delta","delta":{"stop_reason":"end_turn"},"usage":{"output_tokens":2}}`,
			`{"type":"message_stop"}`,
		} {
			var head struct{ Type string }
			json.Unmarshal([]byte(ev), &head)
			fmt.Fprintf(w, "event: %s\ndata: %s\n\n", head.Type, ev)
		}
	}))
	defer srv.Close()

	p := anthropic.New(endpoint.BaseURL(srv.URL), endpoint.HTTPClient(srv.Client()))
	req := contract.ModelRequest{Model: "claude-haiku-4-5", History: contract.HistoryOf(contract.UserText("Hi"))}
	for c, err := range p.Stream(context.Background(), req) {
		if err != nil {
			fmt.Println("error:", err)
			return
		}
		switch c.Kind {
		case turn.ChunkResponse:
			fmt.Printf("%s model %q id %q\n", c.Kind, c.Name, c.Text)
		case turn.ChunkUsage:
			fmt.Println(c.Kind, c.Usage.InputTokens, c.Usage.OutputTokens)
		default:
			fmt.Printf("%s %q\n", c.Kind, c.Text+string(c.Stop))
		}
	}
	// Output:
	// response model "claude-haiku-4-5-20251001" id "msg_1"
	// text "Hello."
	// usage 3 2
	// stop "end_turn"
}

// ExampleNewFromEnv talks to the endpoint named by ANTHROPIC_BASE_URL and
// ANTHROPIC_API_KEY, and ANTHROPIC_MODEL names the model. It has no Output
// line, so go test compiles it but never calls an external service.
func ExampleNewFromEnv() {
	model := os.Getenv("ANTHROPIC_MODEL")
	if model == "" || (os.Getenv("ANTHROPIC_API_KEY") == "") {
		return
	}
	p := anthropic.NewFromEnv()
	req := contract.ModelRequest{Model: model, MaxOutputTokens: 64, History: contract.HistoryOf(contract.UserText("Say hello in three words."))}
	for c, err := range p.Stream(context.Background(), req) {
		if err != nil {
			fmt.Println("error:", err)
			return
		}
		if c.Kind == turn.ChunkText {
			fmt.Print(c.Text)
		}
	}
	fmt.Println()
}
