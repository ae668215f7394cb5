package conductor_test

import (
	"context"
	"sync"
	"testing"
	"time"

	"github.com/batonrt/baton/conductor"
	"github.com/batonrt/baton/contract"
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

// TestChildsAlwaysAndParentsAbortDoNotDeadlock: a child's "always" is
// offered to its parent while the child applies it; the parent's abort,
// handed in meanwhile, stops the child and waits for that. Neither may
// wait on the other: the person's decision returns, and so does the
// abort.
func TestChildsAlwaysAndParentsAbortDoNotDeadlock(t *testing.T) {
	model := agentsModel{
		"parent": delegateOnce(call{"c1", "delegate_writer", `{"task":"write"}`}),
		"writer": delegateOnce(call{"w1", "echo", `{"text":"ink"}`}),
	}
	deps := testDeps(model, toolBox(t, keyedEcho(t)))
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
		decided <- a.ApproveSubflow([]string{"c1"}, "w1", conductor.Decision{Approved: true, Scope: contract.ScopeSession})
	}()
	// The parent records what its child allowed: its next append.
	<-held
	aborted := make(chan error, 1)
	go func() { aborted <- a.Abort(contract.AbortNow) }()
	time.Sleep(50 * time.Millisecond) // the abort is queued behind the allowance
	gs.mu.Lock()
	gs.gate = nil
	gs.mu.Unlock()
	close(gate)
	for what, ch := range map[string]chan error{"the decision": decided, "the abort": aborted} {
		select {
		case err := <-ch:
			if err != nil {
				t.Errorf("%s: %v", what, err)
			}
		case <-time.After(5 * time.Second):
			t.Fatalf("%s never returned: the child and its parent wait on each other", what)
		}
	}
	if res := <-done; res.snap.Phase != contract.PhaseFaulted {
		t.Errorf("submit ended in %s, %v; want the abort", res.snap.Phase, res.err)
	}
	_ = a.Close()
}
