package anthropic

import (
	"context"
	"strings"
	"testing"

	"github.com/batonrt/baton/contract"
	"github.com/batonrt/baton/turn"
	"github.com/batonrt/baton/turn/endpoint"
	"github.com/batonrt/baton/turn/transcripttest"
)

// serveEvents serves one streamed reply made of the given events, each
// "type data", between message_start and message_stop.
func serveEvents(t *testing.T, events ...string) *transcripttest.Server {
	t.Helper()
	var b strings.Builder
	b.WriteString("### HTTP 200\nContent-Type: text/event-stream\n\n")
	all := append([]string{`message_start {"type":"message_start","message":{"id":"msg_1","type":"message","role":"assistant","model":"claude-sonnet-4-5","content":[],"stop_reason":null,"stop_sequence":null,"usage":{"input_tokens":3,"output_tokens":1}}}`}, events...)
	all = append(all, `message_delta {"type":"message_delta","delta":{"stop_reason":"tool_use","stop_sequence":null},"usage":{"output_tokens":9}}`, `message_stop {"type":"message_stop"}`)
	for _, e := range all {
		typ, data, _ := strings.Cut(e, " ")
		b.WriteString("event: " + typ + "\ndata: " + data + "\n\n")
	}
	return transcripttest.Serve(t, []byte(b.String()))
}

// TestToolUseStartedTwiceIsBroken: a stream that starts the tool_use
// block at an index already in use (a proxy replaying an event, say)
// broke the protocol. It must not become two calls with one id, which
// would run the tool twice and be refused when sent back.
func TestToolUseStartedTwiceIsBroken(t *testing.T) {
	start := `content_block_start {"type":"content_block_start","index":0,"content_block":{"type":"tool_use","id":"toolu_1","name":"get_weather","input":{}}}`
	s := serveEvents(t, start, start,
		`content_block_delta {"type":"content_block_delta","index":0,"delta":{"type":"input_json_delta","partial_json":"{\"city\":\"Paris\"}"}}`,
		`content_block_stop {"type":"content_block_stop","index":0}`)
	p := New(endpoint.BaseURL(s.URL), endpoint.HTTPClient(s.Client()))
	got := turn.NewDriver(p, turn.Options{MaxRetries: turn.NoRetries}).Run(context.Background(), basicRequest(), nil)
	if f, ok := got.(contract.ModelFailed); !ok || f.Failure != contract.FailStream {
		t.Fatalf("got %#v, want a broken stream", got)
	}
}

// TestToolUseInputAtStart: a tool_use block whose input comes whole in
// content_block_start, with no input_json_delta after it, as servers
// that speak the Messages API without streaming the input send it, keeps
// that input, as the SDK's own accumulator does.
func TestToolUseInputAtStart(t *testing.T) {
	s := serveEvents(t,
		`content_block_start {"type":"content_block_start","index":0,"content_block":{"type":"tool_use","id":"toolu_1","name":"get_weather","input":{"city":"Paris"}}}`,
		`content_block_stop {"type":"content_block_stop","index":0}`)
	p := New(endpoint.BaseURL(s.URL), endpoint.HTTPClient(s.Client()))
	got := turn.NewDriver(p, turn.Options{MaxRetries: turn.NoRetries}).Run(context.Background(), basicRequest(), nil)
	r, ok := got.(contract.ModelReplied)
	if !ok {
		t.Fatalf("got %#v, want a reply", got)
	}
	if calls := r.Reply.Calls(); len(calls) != 1 || calls[0].Arguments != `{"city":"Paris"}` {
		t.Errorf("calls %+v, want one with arguments {\"city\":\"Paris\"}", calls)
	}
}
