package wire

import (
	"context"
	"net/http"
	"slices"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/batonrt/baton/contract"
	"github.com/batonrt/baton/store"
	"github.com/batonrt/baton/turn"
	"github.com/batonrt/baton/wire/agui"
)

// TestReconnectAfterTheServerDiesWithSteeringQueued: a client posts a
// message that steers the run while its model call streams; the server
// dies before the call ends, the steering still queued, and the server
// that takes the run on applies it before it calls the model again. The
// official client reconnecting from its last id is told to drop the
// dead call and keeps its own steering message: it ends with the user's
// two messages and the one reply. The snapshot left the steering out,
// and steering_applied, a CUSTOM event, adds no message.
func TestReconnectAfterTheServerDiesWithSteeringQueued(t *testing.T) {
	shared := store.NewMemory()
	st := &dyingStore{Store: shared}
	first, h := plainServer(t, st, streamsThenHangs{chunks: []turn.Chunk{
		{Kind: turn.ChunkText, Text: "Hello "},
		{Kind: turn.ChunkText, Text: "world, "},
	}}, HandlerOptions{})
	resp := postTo(t, first.URL, runBody("t1", "hi"))
	n := 0
	had := readSSEUntil(t, resp.Body, func(f sseData) bool {
		if strings.Contains(f.data, agui.TextMessageContent) {
			n++
		}
		return n == 2
	})
	steer := postTo(t, first.URL, aguiBody("t1", []map[string]any{
		{"id": "u-hi", "role": "user", "content": "hi"},
		{"id": "u-more", "role": "user", "content": "and more"},
	}))
	waitFor(t, func() bool {
		h.mu.Lock()
		th := h.threads["t1"]
		h.mu.Unlock()
		return len(th.r.Snapshot().Queued) == 1
	})
	st.die()
	resp.Body.Close()
	steer.Body.Close()
	first.Close()

	release := make(chan struct{})
	again, _ := plainServer(t, shared, &script{replies: []func(context.Context) ([]turn.Chunk, error){
		gated(release, reply(
			turn.Chunk{Kind: turn.ChunkText, Text: "Bonjour."},
			turn.Chunk{Kind: turn.ChunkStop, Stop: contract.StopEndTurn})),
	}}, HandlerOptions{})
	req, _ := http.NewRequest(http.MethodGet, again.URL+"?threadId=t1", nil)
	req.Header.Set("Last-Event-ID", had[len(had)-1].id)
	resumed := framesOf(t, streamOf(t, req, release))

	// The client's list when it reconnects: what the first stream built
	// on its message, then the steering message it posted.
	client := officialFold(t, []agui.Message{{ID: "u-hi", Role: "user", Content: "hi"}}, framesOf(t, had))
	client = append(client, agui.Message{ID: "u-more", Role: "user", Content: "and more"})
	client = officialFold(t, client, resumed)
	var got []string
	for _, m := range client {
		got = append(got, m.Role+": "+m.Content)
	}
	slices.Sort(got)
	want := []string{"assistant: Bonjour.", "user: and more", "user: hi"}
	if diff := cmp.Diff(want, got); diff != "" {
		t.Errorf("the client's messages (sorted) mismatch (-want +got):\n%s", diff)
	}
}
