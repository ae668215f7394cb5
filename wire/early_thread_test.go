package wire

import (
	"context"
	"net/http"
	"net/url"
	"strings"
	"testing"

	"github.com/batonrt/baton/conductor"
	"github.com/batonrt/baton/contract"
	"github.com/batonrt/baton/store"
	"github.com/batonrt/baton/turn"
	"github.com/batonrt/baton/wire/agui"
)

// A thread opened by one handler before anyone stored it stays open there
// holding no lock.
// When another handler then starts the thread's run, a message posted to
// the first must reach the driver, as it would had the first never seen
// the thread; it must not fail on the lock the driver holds.
func TestClusterThreadSeenEarlyElsewhereReachesTheDriver(t *testing.T) {
	gate := make(chan struct{})
	t.Cleanup(func() { close(gate) })
	p := newPair(t, func(st store.Store, id string) (*conductor.Agent, error) {
		prov := &script{replies: []func(context.Context) ([]turn.Chunk, error){
			gated(gate, reply(turn.Chunk{Kind: turn.ChunkText, Text: "one"}, turn.Chunk{Kind: turn.ChunkStop, Stop: contract.StopEndTurn})),
			gated(gate, reply(turn.Chunk{Kind: turn.ChunkText, Text: "two"}, turn.Chunk{Kind: turn.ChunkStop, Stop: contract.StopEndTurn})),
		}}
		return conductor.CreateAgent(contract.AgentConfig{Model: "m"}, conductor.Deps{Model: conductor.Model{Provider: prov}, People: conductor.People{Approver: conductor.ApproveLater}, Env: conductor.Env{Store: st, SessionID: id}})
	})
	a, b := p.nodes[0], p.nodes[1]
	aURL, _ := url.Parse(a.srv.URL)
	p.lookup = func(string) *url.URL { return aURL }

	// b opens the thread before anyone stored it, as a request for it
	// would (a post that lost the race to a's, say).
	if err := b.h.Open(t.Context(), "t9"); err != nil {
		t.Fatal(err)
	}
	// a starts the thread's run and drives it.
	p.startRun(t, a, "t9")

	// The next message lands on b.
	req, _ := http.NewRequest(http.MethodPost, b.srv.URL, strings.NewReader(runBody("t9", "again")))
	req.Header.Set("Content-Type", "application/json")
	ctx, cancel := context.WithCancel(t.Context())
	defer cancel()
	req = req.WithContext(ctx)
	resp, err := http.DefaultClient.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	defer resp.Body.Close()
	if n := a.forwarded.Load(); n != 1 {
		// Read what b answered by itself, to say why.
		var got []agui.Event
		for _, f := range readSSE(t, resp.Body) {
			got = append(got, f.Event)
		}
		t.Fatalf("%d requests forwarded to the driver, want 1; b answered itself: %+v", n, got)
	}
}

// The same, for a stream asked too early (answered 404), then again once
// the run started elsewhere: asked of the handler that saw the thread early,
// it is the driver's run, relayed, not an empty thread of its own that
// never sees the run.
func TestClusterThreadSeenEarlyElsewhereStreamsTheDriversRun(t *testing.T) {
	gate := make(chan struct{})
	t.Cleanup(func() { close(gate) })
	p := newPair(t, func(st store.Store, id string) (*conductor.Agent, error) {
		prov := &script{replies: []func(context.Context) ([]turn.Chunk, error){
			gated(gate, reply(turn.Chunk{Kind: turn.ChunkText, Text: "one"}, turn.Chunk{Kind: turn.ChunkStop, Stop: contract.StopEndTurn})),
		}}
		return conductor.CreateAgent(contract.AgentConfig{Model: "m"}, conductor.Deps{Model: conductor.Model{Provider: prov}, People: conductor.People{Approver: conductor.ApproveLater}, Env: conductor.Env{Store: st, SessionID: id}})
	})
	a, b := p.nodes[0], p.nodes[1]
	aURL, _ := url.Parse(a.srv.URL)
	p.lookup = func(string) *url.URL { return aURL }
	resp, err := http.Get(b.srv.URL + "?threadId=t9&lastEventId=0")
	if err != nil {
		t.Fatal(err)
	}
	resp.Body.Close()
	if resp.StatusCode != http.StatusNotFound {
		t.Fatalf("stream of an unknown thread: %d, want 404", resp.StatusCode)
	}
	p.startRun(t, a, "t9")
	ctx, cancel := context.WithCancel(t.Context())
	defer cancel()
	req, _ := http.NewRequestWithContext(ctx, http.MethodGet, b.srv.URL+"?threadId=t9&lastEventId=0", nil)
	resp, err = http.DefaultClient.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	defer resp.Body.Close()
	if n := a.forwarded.Load(); n != 1 || resp.StatusCode != http.StatusOK {
		t.Fatalf("stream on b: %d, %d requests forwarded to the driver, want 200 and 1", resp.StatusCode, n)
	}
}
