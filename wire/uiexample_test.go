package wire_test

import (
	"context"
	"fmt"
	"net/http"
	"net/http/httptest"
	"strings"

	"github.com/batonrt/baton/wire"
)

func ExampleHandlerOptions_protocol() {
	// A handler mounted for AI SDK clients: useChat's default transport
	// POSTs here and resumes with GET /api/chat/{id}/stream.
	h := wire.NewRunnerHandler(func(ctx context.Context, threadID string) (wire.Runner, error) {
		return nil, wire.ErrUnknownThread // a real factory returns wire.AgentRunner(agent)
	}, wire.HandlerOptions{Protocol: wire.ProtocolAISDK})
	defer h.Close()
	srv := httptest.NewServer(h)
	defer srv.Close()
	resp, err := http.Get(srv.URL + "/api/chat/chat-1/stream")
	if err != nil {
		fmt.Println(err)
		return
	}
	resp.Body.Close()
	fmt.Println(resp.StatusCode) // no run in flight: nothing to resume
	resp, err = http.Post(srv.URL+"/api/chat", "application/json", strings.NewReader(`{"id":"chat-1","messages":[]}`))
	if err != nil {
		fmt.Println(err)
		return
	}
	resp.Body.Close()
	fmt.Println(resp.StatusCode)
	// Output:
	// 204
	// 400
}
