package wire

import (
	"context"
	"net/http"
	"strings"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"

	"github.com/batonrt/baton/contract"
	"github.com/batonrt/baton/store"
	"github.com/batonrt/baton/turn"
)

// TestAChildsWorkIsShownAfterItsThreadWasLetGo: a run whose delegate's
// child said something and then asked a person is let go when idle
// (ClientAnswers), its agent closed with the run waiting in the store. A
// client that then comes to the thread afresh (an AG-UI resume from the
// start, an AI SDK resume request) is shown all the child did, as the
// first client was, each event once.
// Before, it was shown the child's question alone: the rest was in the
// child's session only.
func TestAChildsWorkIsShownAfterItsThreadWasLetGo(t *testing.T) {
	replies := func() []func(context.Context) ([]turn.Chunk, error) {
		r := askingChildScript()
		return append(r[:1:1], append([]func(context.Context) ([]turn.Chunk, error){reply(
			turn.Chunk{Kind: turn.ChunkText, Text: "Let me ask."},
			turn.Chunk{Kind: turn.ChunkToolCallStart, Index: 0, CallID: "q1", Name: "ask_human"},
			turn.Chunk{Kind: turn.ChunkToolCallArgs, Index: 0, Text: `{"question":"Which city?"}`},
			turn.Chunk{Kind: turn.ChunkToolCallEnd, Index: 0},
			turn.Chunk{Kind: turn.ChunkStop, Stop: contract.StopToolUse})}, r[2:]...)...)
	}
	for _, proto := range []Protocol{ProtocolAGUI, ProtocolAISDK} {
		t.Run(string(proto), func(t *testing.T) {
			first, _ := childAnswerBodies(proto)
			srv := askingChildServerWith(t, store.NewMemory(), replies(), HandlerOptions{ClientAnswers: true, Protocol: proto, IdleTimeout: 20 * time.Millisecond})
			code, b := post(t, srv.URL, first)
			if code != http.StatusOK || !strings.Contains(b, "call_d/q1") {
				t.Fatalf("first stream: %d, want the child's question call_d/q1:\n%s", code, b)
			}
			want := childLines(t, readSSEUntil(t, strings.NewReader(b), func(sseData) bool { return false }))
			h := srv.Config.Handler.(*Handler)
			waitFor(t, func() bool {
				h.mu.Lock()
				defer h.mu.Unlock()
				return len(h.threads) == 0 && len(h.retiring) == 0
			})
			code, b = rejoin(t, proto, srv.URL, first)
			if code != http.StatusOK {
				t.Fatalf("a new client's stream: %d:\n%s", code, b)
			}
			got := childLines(t, readSSEUntil(t, strings.NewReader(b), func(sseData) bool { return false }))
			if diff := cmp.Diff(want, got); diff != "" {
				t.Errorf("the child's events after the thread was let go mismatch (-first client +new client):\n%s", diff)
			}
		})
	}
}
