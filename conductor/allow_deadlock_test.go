package conductor_test

import (
	"context"
	"encoding/json"
	"sync"
	"testing"

	"github.com/batonrt/baton/conductor"
	"github.com/batonrt/baton/contract"
	"github.com/batonrt/baton/dispatch"
	"github.com/batonrt/baton/store"
)

// gatedStore holds the appends to one session while its gate is armed,
// telling held when the first one is waiting.
type gatedStore struct {
	store.Store
	session string
	mu      sync.Mutex
	gate    chan struct{}
	held    chan struct{}
}

func (g *gatedStore) Append(ctx context.Context, id string, recs ...contract.Record) (store.Hash, error) {
	g.wait(id)
	return g.Store.Append(ctx, id, recs...)
}

func (g *gatedStore) wait(id string) {
	g.mu.Lock()
	gate, held := g.gate, g.held
	if id == g.session && gate != nil {
		g.held = nil
	}
	g.mu.Unlock()
	if id != g.session || gate == nil {
		return
	}
	if held != nil {
		close(held)
	}
	<-gate
}

// heldEcho is keyedEcho that answers only once release is closed (or
// its call is cancelled), so a run calling it cannot move on meanwhile.
func heldEcho(t *testing.T, release <-chan struct{}) dispatch.Tool {
	tool, err := dispatch.Func("echo", "Echoes its text.", func(ctx context.Context, in echoIn) (string, error) {
		select {
		case <-release:
		case <-ctx.Done():
		}
		return in.Text, nil
	}, dispatchNeedsApproval)
	if err != nil {
		t.Fatal(err)
	}
	return dispatch.WithApprovalKeys(tool, func(args json.RawMessage) ([]string, error) {
		var in echoIn
		err := json.Unmarshal(args, &in)
		return []string{in.Text}, err
	})
}

// TestChildsAlwaysAndParentsAbortDoNotDeadlock: a child's "always" is
// offered to its parent while the child applies it; the parent's abort,
// handed in meanwhile, stops the child and waits for that. Neither may
// wait on the other: the person's decision returns, and so does the
// abort. The parent's record of what its child allowed is held until
// the abort is queued behind it, and the child's tool until then too,
// so that nothing else reaches the parent's queue first.
func TestChildsAlwaysAndParentsAbortDoNotDeadlock(t *testing.T) {
	model := agentsModel{
		"parent": delegateOnce(call{"c1", "delegate_writer", `{"task":"write"}`}),
		"writer": delegateOnce(call{"w1", "echo", `{"text":"ink"}`}),
	}
	toolReleased := make(chan struct{})
	defer close(toolReleased)
	deps := testDeps(model, toolBox(t, heldEcho(t, toolReleased)))
	gs := &gatedStore{Store: store.NewMemory(), session: "session_test"}
	deps.Env.Store = gs
	deps.People.Approver = conductor.ApproveLater
	a := newAgent(t, twoDelegates(), deps)
	rec := &recorder{}
	a.Subscribe(rec.add)
	done := submitAsync(a, "go")
	waitFor(t, func() bool { return count(rec.kinds(false), contract.EvApprovalRequested) == 1 })
	gate, held := make(chan struct{}), make(chan struct{})
	gs.mu.Lock()
	gs.gate, gs.held = gate, held
	gs.mu.Unlock()
	decided := make(chan error, 1)
	go func() {
		decided <- a.ApproveSubflow(ctxT(t), []string{"c1"}, "w1", conductor.Decision{Approved: true, Scope: contract.ScopeSession})
	}()
	// The parent records what its child allowed: its next append.
	<-held
	aborted := make(chan error, 1)
	go func() { aborted <- a.Abort(ctxT(t), contract.AbortNow) }()
	waitFor(t, func() bool { return conductor.Queued(a) == 1 })
	gs.mu.Lock()
	gs.gate = nil
	gs.mu.Unlock()
	close(gate)
	if err := returnsOrDump(t, "the decision", decided); err != nil {
		t.Errorf("the decision: %v", err)
	}
	if err := returnsOrDump(t, "the abort", aborted); err != nil {
		t.Errorf("the abort: %v", err)
	}
	if res := <-done; res.snap.Phase != contract.PhaseFaulted {
		t.Errorf("submit ended in %s, %v; want the abort", res.snap.Phase, res.err)
	}
	_ = a.Close()
}
