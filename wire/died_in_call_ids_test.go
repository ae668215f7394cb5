package wire

import (
	"context"
	"io"
	"net/http"
	"strings"
	"testing"

	"github.com/batonrt/baton/contract"
	"github.com/batonrt/baton/store"
	"github.com/batonrt/baton/turn"
	"github.com/batonrt/baton/wire/agui"
)

// TestReconnectAfterTheServerDiesInACallMadeAgainAlike: the model call
// made again after a death streams the same bytes as the dead one, but a
// tool call under another id, as providers name each call afresh. The
// client reconnecting from the dead call's last id is told to drop the
// dead call, which the session never held, and gets the new call's
// arguments whole, under its id.
func TestReconnectAfterTheServerDiesInACallMadeAgainAlike(t *testing.T) {
	shared := store.NewMemory()
	st := &dyingStore{Store: shared}
	first, _ := plainServer(t, st, streamsThenHangs{chunks: []turn.Chunk{
		{Kind: turn.ChunkText, Text: "Let me check."},
		{Kind: turn.ChunkToolCallStart, Index: 0, CallID: "call_dead", Name: "get_weather"},
		{Kind: turn.ChunkToolCallArgs, Index: 0, Text: `{"city":`},
	}}, HandlerOptions{})
	resp := postTo(t, first.URL, runBody("t1", "weather?"))
	had := readSSEUntil(t, resp.Body, func(f sseData) bool { return strings.Contains(f.data, agui.ToolCallArgs) })
	st.die()
	resp.Body.Close()
	first.Close()

	again, _ := plainServer(t, shared, &script{replies: []func(ctx context.Context) ([]turn.Chunk, error){
		reply(
			turn.Chunk{Kind: turn.ChunkText, Text: "Let me check."},
			turn.Chunk{Kind: turn.ChunkToolCallStart, Index: 0, CallID: "call_new", Name: "get_weather"},
			turn.Chunk{Kind: turn.ChunkToolCallArgs, Index: 0, Text: `{"city":`},
			turn.Chunk{Kind: turn.ChunkToolCallArgs, Index: 0, Text: `"Paris"}`},
			turn.Chunk{Kind: turn.ChunkToolCallEnd, Index: 0},
			turn.Chunk{Kind: turn.ChunkStop, Stop: contract.StopToolUse}),
		says("Done."),
	}}, HandlerOptions{})
	waitFor(t, func() bool {
		resp, err := http.Get(again.URL + "/t1/messages")
		if err != nil {
			t.Fatal(err)
		}
		defer resp.Body.Close()
		b, _ := io.ReadAll(resp.Body)
		return strings.Contains(string(b), `"phase":"settled"`)
	})
	last := had[len(had)-1].id
	req, _ := http.NewRequest(http.MethodGet, again.URL+"?threadId=t1", nil)
	req.Header.Set("Last-Event-ID", last)
	c := newAGUIClient()
	c.fold(framesOf(t, had))
	c.fold(framesOf(t, streamOf(t, req, nil)))
	if len(c.faults) > 0 {
		t.Fatalf("reconnected from %s: the client errors the run: %v", last, c.faults)
	}
	if got, held := c.text["call_dead"]; held {
		t.Errorf("reconnected from %s: the client still holds the dead call_dead, with arguments %q", last, got)
	}
	if got, want := c.text["call_new"], `{"city":"Paris"}`; got != want {
		t.Errorf("reconnected from %s: the client holds call_new's arguments as %q, want %q", last, got, want)
	}
}
