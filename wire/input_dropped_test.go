package wire

import (
	"context"
	"encoding/json"
	"net/http"
	"slices"
	"strings"
	"testing"

	"github.com/batonrt/baton/store"
	"github.com/batonrt/baton/turn"
	"github.com/batonrt/baton/wire/agui"
)

// TestAnAbortedRunNamesTheMessagesItDropped: a client posts a message to
// a thread whose run is out at its model, which steers the run; the run
// is aborted before the model gets it. The stream says so with
// baton.input_dropped, naming the message by the id the client gave it,
// so that the client marks that message, not another of the same text.
func TestAnAbortedRunNamesTheMessagesItDropped(t *testing.T) {
	srv, h := plainServer(t, store.NewMemory(), &script{replies: []func(context.Context) ([]turn.Chunk, error){hangs}}, HandlerOptions{})
	first := postTo(t, srv.URL, runBody("t1", "hi"))
	defer first.Body.Close()
	waitFor(t, func() bool {
		h.mu.Lock()
		th := h.threads["t1"]
		h.mu.Unlock()
		return th != nil && th.r.Snapshot().Phase == "awaiting_model"
	})
	body, _ := json.Marshal(map[string]any{
		"threadId": "t1", "runId": "client-run-2", "state": map[string]any{}, "tools": []any{}, "context": []any{},
		"messages": []any{
			map[string]any{"id": "u-hi", "role": "user", "content": "hi"},
			map[string]any{"id": "u-7", "role": "user", "content": "use celsius"},
		},
	})
	steered := postTo(t, srv.URL, string(body))
	defer steered.Body.Close()
	resp, err := http.Post(srv.URL+"/t1/abort", "application/json", strings.NewReader(`{}`))
	if err != nil {
		t.Fatal(err)
	}
	resp.Body.Close()
	if resp.StatusCode != http.StatusNoContent {
		t.Fatalf("abort: status %d", resp.StatusCode)
	}
	var dropped []any
	for _, f := range readSSE(t, steered.Body) {
		if f.Event.Type == agui.Custom && f.Event.Name == agui.CustomInputDropped {
			dropped = append(dropped, f.Event.Value)
		}
	}
	if len(dropped) != 1 {
		t.Fatalf("the steered stream reports %d dropped inputs, want 1: %v", len(dropped), dropped)
	}
	v, _ := dropped[0].(map[string]any)
	ids, _ := v["messageIds"].([]any)
	if !slices.Equal(ids, []any{"u-7"}) {
		t.Errorf("baton.input_dropped names messages %v, want [u-7]: %v", v["messageIds"], v)
	}
}
