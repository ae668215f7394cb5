package anthropic

import (
	"context"
	"testing"
	"time"

	"github.com/batonrt/baton/contract"
	"github.com/batonrt/baton/turn"
	"github.com/batonrt/baton/turn/endpoint"
	"github.com/batonrt/baton/turn/transcripttest"
)

// TestConnectionCutAfterMessageStopKeepsReply: message_stop arrived, so
// the reply is whole; a connection that breaks after it must not throw
// the reply away.
func TestConnectionCutAfterMessageStopKeepsReply(t *testing.T) {
	keptAfterMessageStop(t, "cut", turn.Options{MaxRetries: turn.NoRetries}, true)
}

// TestConnectionCutBeforeMessageStopKeepsReply: message_delta said why
// the reply stopped and gave its usage, and the connection broke before
// message_stop, which only closes the stream. Nothing of the reply is
// missing: asking again would bill it twice, and the model could answer
// otherwise the second time.
func TestConnectionCutBeforeMessageStopKeepsReply(t *testing.T) {
	keptAfterMessageStop(t, "cut", turn.Options{MaxRetries: turn.NoRetries}, false)
}

// TestSilenceBeforeMessageStopKeepsReply: message_delta arrived and the
// server then said nothing until the idle timeout: the reply is kept.
func TestSilenceBeforeMessageStopKeepsReply(t *testing.T) {
	keptAfterMessageStop(t, "hold", turn.Options{MaxRetries: turn.NoRetries, NoFallback: true, IdleTimeout: 100 * time.Millisecond}, false)
}

// TestSilenceAfterMessageStopKeepsReply: message_stop arrived and the
// server then said nothing, holding the connection open, until the idle
// timeout: the reply is kept.
func TestSilenceAfterMessageStopKeepsReply(t *testing.T) {
	keptAfterMessageStop(t, "hold", turn.Options{MaxRetries: turn.NoRetries, NoFallback: true, IdleTimeout: 100 * time.Millisecond}, true)
}

// keptAfterMessageStop serves a whole reply, with message_stop or
// without, in the transcript replay mode, and checks the driver kept it.
func keptAfterMessageStop(t *testing.T, mode string, o turn.Options, messageStop bool) {
	t.Helper()
	last := "event: message_stop\ndata: {\"type\":\"message_stop\"}\n\n"
	if !messageStop {
		last = ""
	}
	s := transcripttest.Serve(t, []byte("### HTTP 200\nContent-Type: text/event-stream\nX-Replay: "+mode+"\n\n"+
		"event: message_start\ndata: {\"type\":\"message_start\",\"message\":{\"id\":\"msg_1\",\"type\":\"message\",\"role\":\"assistant\",\"model\":\"claude-sonnet-4-5\",\"content\":[],\"stop_reason\":null,\"stop_sequence\":null,\"usage\":{\"input_tokens\":3,\"output_tokens\":1}}}\n\n"+
		"event: content_block_start\ndata: {\"type\":\"content_block_start\",\"index\":0,\"content_block\":{\"type\":\"text\",\"text\":\"\"}}\n\n"+
		"event: content_block_delta\ndata: {\"type\":\"content_block_delta\",\"index\":0,\"delta\":{\"type\":\"text_delta\",\"text\":\"Hi.\"}}\n\n"+
		"event: content_block_stop\ndata: {\"type\":\"content_block_stop\",\"index\":0}\n\n"+
		"event: message_delta\ndata: {\"type\":\"message_delta\",\"delta\":{\"stop_reason\":\"end_turn\",\"stop_sequence\":null},\"usage\":{\"output_tokens\":2}}\n\n"+
		last))
	p := New(endpoint.BaseURL(s.URL), endpoint.HTTPClient(s.Client()))
	got := turn.NewDriver(p, o).Run(context.Background(), basicRequest(), nil)
	r, ok := got.(contract.ModelReplied)
	if !ok {
		t.Fatalf("got %#v after %d requests, want the reply that was complete before the cut", got, s.Served())
	}
	if r.Reply.Text() != "Hi." || r.Stop != contract.StopEndTurn || r.Usage.OutputTokens != 2 {
		t.Errorf("got %q, stop %q, usage %+v", r.Reply.Text(), r.Stop, r.Usage)
	}
}
