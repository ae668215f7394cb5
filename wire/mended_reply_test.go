package wire

import (
	"context"
	"net/http"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"

	"github.com/batonrt/baton/contract"
	"github.com/batonrt/baton/store"
	"github.com/batonrt/baton/turn"
)

// TestReconnectAfterAReopenToACallWhoseReplyWasMended: a weak model
// streams a call named None, which the stored reply drops. A client that
// reconnects, once the thread was closed and opened again, from any id
// the live stream gave ends with what a client that never left has: the
// reply's text once, not again in a message of its own, and its own
// message, and none of the dropped call: the live stream takes it off
// its client when the turn completes, a client that reconnects inside
// the call is told to drop it, as the store has none, and one that
// reconnected before it never gets it.
func TestReconnectAfterAReopenToACallWhoseReplyWasMended(t *testing.T) {
	srv, h := plainServer(t, store.NewMemory(), &script{replies: []func(context.Context) ([]turn.Chunk, error){
		reply(
			turn.Chunk{Kind: turn.ChunkText, Text: "Hello "},
			turn.Chunk{Kind: turn.ChunkText, Text: "world."},
			turn.Chunk{Kind: turn.ChunkToolCallStart, Index: 0, CallID: "c0", Name: "None"},
			turn.Chunk{Kind: turn.ChunkToolCallEnd, Index: 0},
			turn.Chunk{Kind: turn.ChunkStop, Stop: contract.StopEndTurn}),
	}}, HandlerOptions{IdleTimeout: 10 * time.Millisecond})
	resp := postTo(t, srv.URL, runBody("t1", "hi"))
	live := readSSE(t, resp.Body)
	resp.Body.Close()
	// The client holds the message it posted, under the id runBody gives it.
	want := newAGUIClient()
	want.text["u-hi"] = "hi"
	want.fold(live)
	if args, held := want.text["c0"]; held {
		t.Errorf("the live client holds the dropped call c0, with arguments %q", args)
	}
	for i, f := range live {
		if f.ID == "" {
			continue
		}
		waitFor(t, func() bool { h.mu.Lock(); defer h.mu.Unlock(); return len(h.threads) == 0 })
		req, _ := http.NewRequest(http.MethodGet, srv.URL+"?threadId=t1", nil)
		req.Header.Set("Last-Event-ID", f.ID)
		got := newAGUIClient()
		got.text["u-hi"] = "hi"
		got.fold(live[:i+1])
		got.fold(framesOf(t, streamOf(t, req, nil)))
		if len(got.faults) > 0 {
			t.Errorf("reconnected from %s: the client errors the run: %v", f.ID, got.faults)
		}
		if diff := cmp.Diff(want.text, got.text); diff != "" {
			t.Errorf("reconnected from %s: text mismatch (-live +resumed):\n%s", f.ID, diff)
		}
	}
}
