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

// ExampleNewFromEnv talks to the endpoint named by OPENAI_BASE_URL and
// OPENAI_API_KEY, and OPENAI_MODEL names the model. It has no Output
// line, so go test compiles it but never calls an external service.
func ExampleNewFromEnv() {
	model := os.Getenv("OPENAI_MODEL")
	if model == "" || (os.Getenv("OPENAI_API_KEY") == "" && os.Getenv("OPENAI_BASE_URL") == "") {
		return
	}
	p := openai.NewFromEnv()
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
