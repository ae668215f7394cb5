package wire_test

import (
	"bufio"
	"context"
	"encoding/json"
	"fmt"
	"net/http"
	"net/http/httptest"
	"strings"

	"github.com/batonrt/baton/conductor"
	"github.com/batonrt/baton/contract"
	"github.com/batonrt/baton/provider/scripted"
	"github.com/batonrt/baton/wire"
)

// NewHandler serves one agent per thread, made on the thread's first
// request. Here an AI SDK client posts a message to thread chat-1 and
// reads the run as the UI message stream; an AG-UI client would post a
// RunAgentInput to the same URL without the protocol parameter, and
// one that sends Accept: application/x-ndjson gets baton's own events.
func ExampleNewHandler() {
	h := wire.NewHandler(func(ctx context.Context, threadID string) (*conductor.Agent, error) {
		return conductor.CreateAgent(contract.AgentConfig{Model: "scripted"}, conductor.Deps{
			Model: conductor.Model{Provider: scripted.New(scripted.Reply{Text: "Hello from " + threadID + "."})},
		})
	}, wire.HandlerOptions{})
	defer h.Close()
	srv := httptest.NewServer(h)
	defer srv.Close()

	body := `{"id":"chat-1","messages":[{"id":"m1","role":"user","parts":[{"type":"text","text":"hi"}]}]}`
	resp, err := http.Post(srv.URL+"/?protocol=ai-sdk", "application/json", strings.NewReader(body))
	if err != nil {
		fmt.Println(err)
		return
	}
	defer resp.Body.Close()
	fmt.Println(resp.Status, resp.Header.Get("Content-Type"))
	lines := bufio.NewScanner(resp.Body)
	for lines.Scan() {
		data, ok := strings.CutPrefix(lines.Text(), "data: ")
		if !ok || data == "[DONE]" {
			continue
		}
		var part struct{ Type, Delta string }
		if err := json.Unmarshal([]byte(data), &part); err != nil {
			fmt.Println(err)
			return
		}
		if part.Delta != "" {
			fmt.Printf("%s %q\n", part.Type, part.Delta)
			continue
		}
		fmt.Println(part.Type)
	}
	// Output:
	// 200 OK text/event-stream
	// start
	// start-step
	// text-start
	// text-delta "Hello "
	// text-delta "from "
	// text-delta "chat-1."
	// text-end
	// finish-step
	// finish
}
