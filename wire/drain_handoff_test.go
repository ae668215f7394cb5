package wire

import (
	"context"
	"io"
	"net/http"
	"slices"
	"testing"

	"github.com/batonrt/baton/conductor"
	"github.com/batonrt/baton/contract"
	"github.com/batonrt/baton/store"
	"github.com/batonrt/baton/turn"
)

// A draining handler takes no new work, but a request for a thread
// another handler drives is no work of its own: it hands the request
// there, as before the drain, rather than refuse it with 503 while the
// owner could answer at once (a client's abort of a run elsewhere, or
// its read of the conversation, would otherwise wait out the drain).
func TestDrainingHandlerHandsOnRequestsForThreadsDrivenElsewhere(t *testing.T) {
	gate := make(chan struct{})
	p := newPair(t, func(st store.Store, id string) (*conductor.Agent, error) {
		prov := &script{replies: []func(context.Context) ([]turn.Chunk, error){gated(gate, says("done"))}}
		return conductor.CreateAgent(contract.AgentConfig{Model: "m"}, conductor.Deps{Model: conductor.Model{Provider: prov}, People: conductor.People{Approver: conductor.ApproveLater}, Env: conductor.Env{Store: st, SessionID: id}})
	})
	a, b := p.nodes[0], p.nodes[1]
	p.startRun(t, a, "t1")
	// b holds a run of its own, so that it stays draining.
	p.startRun(t, b, "t2")
	drained := make(chan error, 1)
	go func() { drained <- b.h.Drain(context.Background()) }()
	waitFor(t, func() bool {
		b.h.mu.Lock()
		defer b.h.mu.Unlock()
		return b.h.draining
	})
	for _, rt := range []struct {
		name, method, path, body string
		want                     []int
	}{
		{"messages", http.MethodGet, "/t1/messages", "", []int{http.StatusOK}},
		// 202 while the aborted run winds up, 204 once it has.
		{"abort", http.MethodPost, "/t1/abort", `{"mode":"now"}`, []int{http.StatusAccepted, http.StatusNoContent}},
	} {
		code, got := send(t, rt.method, b.srv.URL+rt.path, rt.body, "")
		if !slices.Contains(rt.want, code) {
			t.Errorf("%s of a thread another handler drives, asked of a draining one: %d %q, want one of %v", rt.name, code, got, rt.want)
		}
	}
	close(gate)
	if err := <-drained; err != nil {
		t.Fatal(err)
	}
}

// A handler that has drained, or is leaving its runs in flight, is
// closed while its server still takes requests: one another handler
// hands it is misdirected (421), so that the sender opens the thread
// itself once the lock is let go, rather than relay a 503 to a client
// that reconnects to the run left in flight.
func TestClosedHandlerSendsHandedRequestsBack(t *testing.T) {
	e := newEnv(t, helloScript)
	if err := e.h.Drain(context.Background()); err != nil {
		t.Fatal(err)
	}
	resp := e.post(context.Background(), runBody("t1", "hi"), map[string]string{forwardedHeader: "1"})
	b, _ := io.ReadAll(resp.Body)
	resp.Body.Close()
	if resp.StatusCode != http.StatusMisdirectedRequest {
		t.Errorf("a request handed to a drained handler: %d %q, want 421", resp.StatusCode, b)
	}
}

// A message handed over for a thread a draining handler still holds,
// idle, cannot start a run there: it is misdirected (421), so that the
// sender opens the thread itself once the drain lets it go, rather than
// relay a 503 while it could run the message.
func TestDrainingHandlerSendsHandedNewRunBack(t *testing.T) {
	e := newEnv(t, helloScript)
	resp := e.post(context.Background(), runBody("t1", "one"), nil)
	io.Copy(io.Discard, resp.Body)
	resp.Body.Close()
	// Draining, without the drain's loop that would close the thread.
	e.h.mu.Lock()
	e.h.draining = true
	e.h.mu.Unlock()
	for _, tc := range []struct {
		name   string
		header map[string]string
		code   int
	}{
		{"asked directly", nil, http.StatusServiceUnavailable},
		{"handed over", map[string]string{forwardedHeader: "1"}, http.StatusMisdirectedRequest},
	} {
		resp := e.post(context.Background(), runBody("t1", "two"), tc.header)
		b, _ := io.ReadAll(resp.Body)
		resp.Body.Close()
		if resp.StatusCode != tc.code {
			t.Errorf("a new run of a held thread %s while draining: %d %q, want %d", tc.name, resp.StatusCode, b, tc.code)
		}
	}
}
