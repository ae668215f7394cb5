package wire

import (
	"context"
	"io"
	"net/http"
	"testing"

	"github.com/batonrt/baton/conductor"
	"github.com/batonrt/baton/contract"
	"github.com/batonrt/baton/store"
	"github.com/batonrt/baton/turn"
)

// An abort posted to the handler that does not drive the thread reaches
// the owner, which stops its run: a client may talk to any of the
// handlers over one shared store.
func TestAbortPostedToNonOwnerStopsTheOwnersRun(t *testing.T) {
	gate := make(chan struct{})
	t.Cleanup(func() { close(gate) })
	p := newPair(t, func(st store.Store, id string) (*conductor.Agent, error) {
		prov := &script{replies: []func(context.Context) ([]turn.Chunk, error){gated(gate, reply(
			turn.Chunk{Kind: turn.ChunkText, Text: "never said"},
			turn.Chunk{Kind: turn.ChunkStop, Stop: contract.StopEndTurn}))}}
		return conductor.CreateAgent(contract.AgentConfig{Model: "m"}, conductor.Deps{Model: conductor.Model{Provider: prov}, Env: conductor.Env{Store: st, SessionID: id}})
	})
	a, b := p.nodes[0], p.nodes[1]
	p.startRun(t, a, "t1")
	req, _ := http.NewRequest(http.MethodPost, b.srv.URL+"/t1/abort", http.NoBody)
	req.Header.Set("Content-Type", "application/json")
	resp, err := http.DefaultClient.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	msg, _ := io.ReadAll(resp.Body)
	resp.Body.Close()
	if resp.StatusCode != http.StatusNoContent {
		t.Fatalf("abort on the non-owner: %d %q, want 204", resp.StatusCode, msg)
	}
	if n := a.forwarded.Load(); n != 1 {
		t.Errorf("%d requests forwarded to the owner, want 1", n)
	}
	recs, err := p.st.Records(t.Context(), "t1")
	if err != nil {
		t.Fatal(err)
	}
	if n := countKind(recs, contract.SigAbortRequested); n != 1 {
		t.Errorf("%d aborts recorded, want the owner's one", n)
	}
	if ph, _ := threadPhase(a.h, "t1"); ph != contract.PhaseFaulted {
		t.Errorf("the owner's run is %q, want faulted", ph)
	}
}
