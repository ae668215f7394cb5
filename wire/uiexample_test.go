package wire_test

import (
	"context"
	"fmt"
	"net/http"
	"net/http/httptest"
	"os"
	"strings"

	"github.com/batonrt/baton/contract"
	"github.com/batonrt/baton/wire"
)

func ExampleUIMessageProjector_Project() {
	p := wire.NewUIMessageProjector("chat-1")
	w := wire.NewSSEWriter(os.Stdout)
	events := []contract.RunEvent{
		{Seq: 1, SessionID: "chat-1", RunID: "run-1", Kind: contract.EvRunStarted},
		{Seq: 1, Delta: 1, Kind: contract.EvTextDelta, Text: "Hi"},
		{Seq: 2, Kind: contract.EvTurnCompleted, Turn: &contract.Turn{Role: contract.RoleAssistant, Blocks: []contract.Block{contract.TextBlock("Hi")}}},
		{Seq: 3, RunID: "run-1", Kind: contract.EvRunSettled},
	}
	for _, ev := range events {
		for _, c := range p.Project(ev) {
			_ = w.WriteUIChunk(c)
		}
	}
	_ = w.WriteUIDone()
	// Output:
	// data: {"type":"start","messageId":"run-1","messageMetadata":{"sessionId":"chat-1","runId":"run-1"}}
	//
	// data: {"type":"start-step"}
	//
	// data: {"type":"text-start","id":"text-1"}
	//
	// data: {"type":"text-delta","id":"text-1","delta":"Hi"}
	//
	// data: {"type":"text-end","id":"text-1"}
	//
	// data: {"type":"finish-step"}
	//
	// data: {"type":"finish","messageMetadata":{"sessionId":"chat-1","runId":"run-1","phase":"settled"},"finishReason":"stop"}
	//
	// data: [DONE]
}

func ExampleDecodeUIChatRequest() {
	in, err := wire.DecodeUIChatRequest([]byte(`{"id":"chat-1","trigger":"submit-message","messages":[
		{"id":"1","role":"user","parts":[{"type":"text","text":"hi"}]},
		{"id":"2","role":"assistant","parts":[{"type":"text","text":"hello"}]},
		{"id":"3","role":"user","parts":[{"type":"file","url":"x"},{"type":"text","text":"what now?"}]}]}`))
	if err != nil {
		fmt.Println(err)
		return
	}
	turns, err := in.NewTurns()
	fmt.Println(in.ID, len(turns), turns[0].Text(), err)
	_, err = wire.DecodeUIChatRequest([]byte(`{"messages":[]}`))
	fmt.Println(err)
	// Output:
	// chat-1 1 what now? <nil>
	// wire: bad run input: id is empty
}

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
