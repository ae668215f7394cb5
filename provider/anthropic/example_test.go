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

// ExampleNewFromEnv takes the server's address from ANTHROPIC_BASE_URL
// (a gateway's, say) and the API key from ANTHROPIC_API_KEY (options
// given in code win over both); here they name a local stand-in that
// checks the key.
func ExampleNewFromEnv() {
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if r.Header.Get("X-Api-Key") != "sk-ant-example" {
			http.Error(w, "wrong key", http.StatusUnauthorized)
			return
		}
		w.Header().Set("Content-Type", "text/event-stream")
		for _, ev := range []string{
			`{"type":"message_start","message":{"id":"msg_1","type":"message","role":"assistant","content":[],"model":"m","usage":{"input_tokens":3,"output_tokens":1}}}`,
			`{"type":"content_block_start","index":0,"content_block":{"type":"text","text":""}}`,
			`{"type":"content_block_delta","index":0,"delta":{"type":"text_delta","text":"Hello there."}}`,
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
	defer setenv("ANTHROPIC_BASE_URL", srv.URL)()
	defer setenv("ANTHROPIC_API_KEY", "sk-ant-example")()

	p := anthropic.NewFromEnv()
	req := contract.ModelRequest{Model: "claude-haiku-4-5", History: contract.HistoryOf(contract.UserText("Hi"))}
	for c, err := range p.Stream(context.Background(), req) {
		if err != nil {
			fmt.Println("error:", err)
			return
		}
		if c.Kind == turn.ChunkText {
			fmt.Println(c.Text)
		}
	}
	// Output: Hello there.
}

// setenv sets the variable key to v and returns what restores it.
func setenv(key, v string) (restore func()) {
	old, had := os.LookupEnv(key)
	os.Setenv(key, v)
	return func() {
		if had {
			os.Setenv(key, old)
		} else {
			os.Unsetenv(key)
		}
	}
}
