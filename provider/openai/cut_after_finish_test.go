package openai

import (
	"context"
	"testing"
	"time"

	"github.com/batonrt/baton/contract"
	"github.com/batonrt/baton/turn"
	"github.com/batonrt/baton/turn/endpoint"
	"github.com/batonrt/baton/turn/transcripttest"
)

// TestConnectionCutAfterFinishKeepsReply: the server sent the whole
// reply, its finish_reason and its usage, and the connection broke
// before "data: [DONE]". The reply is complete; the driver promises that
// nothing after a stop spoils one, so it must not be thrown away and
// asked for again (and billed again) until the retries run out.
func TestConnectionCutAfterFinishKeepsReply(t *testing.T) {
	keptAfterFinish(t, "cut", turn.Options{MaxRetries: turn.NoRetries, NoFallback: true})
}

// TestSilenceAfterFinishKeepsReply: the server sent the whole reply, its
// finish_reason and its usage, and then said nothing more, holding the
// connection open, until the idle timeout gave the attempt up. The reply
// was whole: it is kept, not asked for again.
func TestSilenceAfterFinishKeepsReply(t *testing.T) {
	keptAfterFinish(t, "hold", turn.Options{MaxRetries: turn.NoRetries, NoFallback: true, IdleTimeout: 100 * time.Millisecond})
}

// keptAfterFinish serves a whole reply, finish_reason and usage without
// [DONE], in the transcript replay mode, and checks the driver kept it.
func keptAfterFinish(t *testing.T, mode string, o turn.Options) {
	t.Helper()
	s := transcripttest.Serve(t, []byte("### HTTP 200\nContent-Type: text/event-stream\nX-Replay: "+mode+"\n\n"+
		`data: {"id":"c","object":"chat.completion.chunk","created":1,"model":"m","choices":[{"index":0,"delta":{"role":"assistant","content":"Hi."},"finish_reason":null}]}`+"\n\n"+
		`data: {"id":"c","object":"chat.completion.chunk","created":1,"model":"m","choices":[{"index":0,"delta":{},"finish_reason":"stop"}]}`+"\n\n"+
		`data: {"id":"c","object":"chat.completion.chunk","created":1,"model":"m","choices":[],"usage":{"prompt_tokens":3,"completion_tokens":2,"total_tokens":5}}`+"\n\n"))
	p := New(endpoint.BaseURL(s.URL), endpoint.HTTPClient(s.Client()))
	got := turn.NewDriver(p, o).Run(context.Background(), basicRequest(), nil)
	r, ok := got.(contract.ModelReplied)
	if !ok {
		t.Fatalf("got %#v after %d requests, want the reply that was whole before the connection broke or went quiet", got, s.Served())
	}
	if r.Reply.Text() != "Hi." || r.Stop != contract.StopEndTurn || r.Usage.InputTokens != 3 || r.Usage.OutputTokens != 2 {
		t.Errorf("got %q, stop %q, usage %+v; want \"Hi.\", end_turn, 3 in and 2 out", r.Reply.Text(), r.Stop, r.Usage)
	}
}

// TestSilenceBeforeFinishFails: a server that goes quiet before the
// reply's end still fails the attempt as quiet.
func TestSilenceBeforeFinishFails(t *testing.T) {
	s := transcripttest.Serve(t, []byte("### HTTP 200\nContent-Type: text/event-stream\nX-Replay: hold\n\n"+
		`data: {"id":"c","object":"chat.completion.chunk","created":1,"model":"m","choices":[{"index":0,"delta":{"role":"assistant","content":"Hi."},"finish_reason":null}]}`+"\n\n"))
	p := New(endpoint.BaseURL(s.URL), endpoint.HTTPClient(s.Client()))
	got := turn.NewDriver(p, turn.Options{MaxRetries: turn.NoRetries, NoFallback: true, IdleTimeout: 100 * time.Millisecond}).Run(context.Background(), basicRequest(), nil)
	if f, ok := got.(contract.ModelFailed); !ok || f.Failure != contract.FailTimeout {
		t.Fatalf("got %#v, want a timeout", got)
	}
}
