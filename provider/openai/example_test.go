package openai_test

import (
	"context"
	"fmt"
	"net/http"
	"net/http/httptest"
	"os"

	"github.com/batonrt/baton/contract"
	"github.com/batonrt/baton/provider/openai"
	"github.com/batonrt/baton/turn"
	"github.com/batonrt/baton/turn/endpoint"
)

// ExampleNew streams a reply from an OpenAI-compatible server; here a
// local stand-in plays two chunks. The response chunk comes first,
// naming the model that answered and the completion's id.
func ExampleNew() {
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Content-Type", "text/event-stream")
		fmt.Fprint(w, `data: {"id":"chatcmpl-1","object":"chat.completion.chunk","created":1,"model":"llama3.2","choices":[{"index":0,"delta":{"content":"Hello."},"finish_reason":null}]}`+"\n\n")
		fmt.Fprint(w, `data: {"id":"chatcmpl-1","object":"chat.completion.chunk","created":1,"model":"llama3.2","choices":[{"index":0,"delta":{},"finish_reason":"stop"}]}`+"\n\n")
		fmt.Fprint(w, "data: [DONE]\n\n")
	}))
	defer srv.Close()

	p := openai.New(endpoint.BaseURL(srv.URL), endpoint.HTTPClient(srv.Client()))
	req := contract.ModelRequest{Model: "llama3.2", History: contract.HistoryOf(contract.UserText("Hi"))}
	for c, err := range p.Stream(context.Background(), req) {
		if err != nil {
			fmt.Println("error:", err)
			return
		}
		if c.Kind == turn.ChunkResponse {
			fmt.Printf("%s model %q id %q\n", c.Kind, c.Name, c.Text)
			continue
		}
		fmt.Printf("%s %q\n", c.Kind, c.Text+string(c.Stop))
	}
	// Output:
	// response model "llama3.2" id "chatcmpl-1"
	// text "Hello."
	// stop "end_turn"
}

// ExampleNewFromEnv takes the server's address from OPENAI_BASE_URL and
// the API key from OPENAI_API_KEY (options given in code win over both);
// here they name a local stand-in that checks the key.
func ExampleNewFromEnv() {
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if r.Header.Get("Authorization") != "Bearer sk-example" {
			http.Error(w, "wrong key", http.StatusUnauthorized)
			return
		}
		w.Header().Set("Content-Type", "text/event-stream")
		fmt.Fprint(w, `data: {"id":"c1","object":"chat.completion.chunk","created":1,"model":"m","choices":[{"index":0,"delta":{"content":"Hello there."},"finish_reason":"stop"}]}`+"\n\n")
		fmt.Fprint(w, "data: [DONE]\n\n")
	}))
	defer srv.Close()
	defer setenv("OPENAI_BASE_URL", srv.URL)()
	defer setenv("OPENAI_API_KEY", "sk-example")()

	p := openai.NewFromEnv()
	req := contract.ModelRequest{Model: "gpt-4o-mini", History: contract.HistoryOf(contract.UserText("Hi"))}
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
