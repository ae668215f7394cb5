package conductor_test

import (
	"context"
	"errors"
	"sync"
	"testing"

	"github.com/batonrt/baton/cadence"
	"github.com/batonrt/baton/conductor"
	"github.com/batonrt/baton/contract"
	"github.com/batonrt/baton/store"
)

// abortedMidChild leaves in st a parent whose abort (after its tools) is
// recorded while its delegate's child, waiting for an approval, is in
// flight in its own session: the store refuses the child's abort, as a
// process that stopped between the two records would have left them.
func abortedMidChild(t *testing.T, st store.Store, cfg contract.AgentConfig, asker string) {
	t.Helper()
	// The asker's records: submitted, its reply asking to call echo, then
	// the abort, refused.
	deps := testDeps(askingTree(), toolBox(t, echoTool(t, dispatchNeedsApproval)))
	deps.Env.Store = &failOnceStore{Store: st, prefix: asker, n: 3}
	deps.People.Approver = conductor.ApproveLater
	a := newAgent(t, cfg, deps)
	rec := &recorder{}
	a.Subscribe(rec.add)
	done := submitAsync(a, "go")
	waitFor(t, func() bool {
		rec.mu.Lock()
		defer rec.mu.Unlock()
		for _, ev := range rec.events {
			if ev.Kind == contract.EvApprovalRequested && len(ev.Subflow) > 0 {
				return true
			}
		}
		return false
	})
	if err := a.Abort(ctxT(t), contract.AbortAfterTools); !errors.Is(err, contract.ErrStore) {
		t.Fatalf("abort = %v, want the child's refused record as a store error", err)
	}
	if res := <-done; !errors.Is(res.err, contract.ErrStore) {
		t.Fatalf("submit = %v, want a store error", res.err)
	}
	_ = a.Close()
	parent, err := store.Resume(ctxT(t), st, cadence.New(cfg), "session_test")
	if err != nil || parent.Abort != contract.AbortAfterTools {
		t.Fatalf("the parent's session holds %s with abort %q (%v), want its abort recorded", parent.Phase, parent.Abort, err)
	}
}

// askingTree answers for a parent that hands a task to a writer, or to a
// mid that hands it on to a writer; the writer asks to call echo.
func askingTree() agentsModel {
	return agentsModel{
		"parent": delegateOnce(call{"c1", "delegate_writer", `{"task":"write"}`}),
		"mid":    delegateOnce(call{"m1", "delegate_writer", `{"task":"write"}`}),
		"writer": delegateOnce(call{"w1", "echo", `{"text":"ink"}`}),
	}
}

// deepWriter is twoDelegates' writer one level down, under mid.
func deepWriter() contract.AgentConfig {
	cfg := twoDelegates()
	mid := contract.AgentConfig{Model: "gpt-4o", System: "mid", Delegates: cfg.Delegates[1:]}
	cfg.Delegates = []contract.Delegate{{Name: "writer", Config: mid}}
	return cfg
}

// TestResumeOfAnAbortedParentEndsItsChildsRun: a parent whose abort was
// recorded while its delegate's child ran is resumed (Resume or Reopen).
// The abort ends the parent's run at once, answering the delegate call;
// the child's run, linked under that answer, must end too, recorded in
// the child's session, so the DAG holds no run in flight under an
// answered call and a later Resume of the child finds nothing to do.
func TestResumeOfAnAbortedParentEndsItsChildsRun(t *testing.T) {
	trees := []struct {
		name   string
		cfg    contract.AgentConfig
		asker  string
		chains int
	}{
		{"child", twoDelegates(), "session_test/", 1},
		{"grandchild", deepWriter(), "session_test/2.0/", 2},
	}
	for _, tree := range trees {
		for _, how := range []string{"Resume", "Reopen"} {
			t.Run(tree.name+"/"+how, func(t *testing.T) {
				resumeAborted(t, tree.cfg, tree.asker, how, tree.chains)
			})
		}
	}
}

func resumeAborted(t *testing.T, cfg contract.AgentConfig, asker, how string, chains int) {
	st := store.NewMemory()
	abortedMidChild(t, st, cfg, asker)
	deps := testDeps(agentsModel{}, toolBox(t, echoTool(t, dispatchNeedsApproval)))
	deps.Env.Store = st
	a := newAgent(t, cfg, deps)
	var snap contract.RunSnapshot
	var err error
	if how == "Resume" {
		snap, err = a.Resume(ctxT(t), "session_test")
	} else {
		snap, err = a.Reopen(ctxT(t), "session_test")
	}
	if !errors.Is(err, contract.ErrAborted) && (how == "Resume" || err != nil) {
		t.Fatalf("%s = %v", how, err)
	}
	if snap.Phase != contract.PhaseFaulted || !errors.Is(snap.Err, contract.ErrAborted) {
		t.Fatalf("the parent resumed to %s (%v), want it aborted", snap.Phase, snap.Err)
	}
	_ = a.Close()
	checkDAG(t, st, "session_test", chains)
}

// headHeld holds the first look-up of session's head until release is
// closed or its context ends; entered is closed when it begins.
type headHeld struct {
	store.Store
	session string
	entered chan struct{}
	release chan struct{}
	once    sync.Once
}

func (h *headHeld) Head(ctx context.Context, id string) (store.Hash, error) {
	first := false
	if id == h.session {
		h.once.Do(func() { first = true })
	}
	if first {
		close(h.entered)
		select {
		case <-h.release:
		case <-ctx.Done():
			return store.Hash{}, ctx.Err()
		}
	}
	return h.Store.Head(ctx, id)
}

// TestAbortBeforeAReopenedChildBeginsEndsItsRun: a parent and its
// delegate's child wait for a person when their agent closes, which
// leaves both runs in flight. Reopened, the parent is aborted before the
// child has picked its run up again (the tool hooks look its session up
// first, and that look-up is held). The abort answers the delegate call,
// so the child, which now never begins, must still have its stored run
// ended, or the DAG links a run in flight under an answered call.
func TestAbortBeforeAReopenedChildBeginsEndsItsRun(t *testing.T) {
	st := store.NewMemory()
	deps := testDeps(askingTree(), toolBox(t, echoTool(t, dispatchNeedsApproval)))
	deps.Env.Store = st
	deps.People.Approver = conductor.ApproveLater
	a := newAgent(t, twoDelegates(), deps)
	rec := &recorder{}
	a.Subscribe(rec.add)
	done := submitAsync(a, "go")
	waitFor(t, func() bool {
		rec.mu.Lock()
		defer rec.mu.Unlock()
		for _, ev := range rec.events {
			if ev.Kind == contract.EvApprovalRequested && len(ev.Subflow) > 0 {
				return true
			}
		}
		return false
	})
	_ = a.Close()
	if res := <-done; !errors.Is(res.err, conductor.ErrClosed) {
		t.Fatalf("submit = %v, want the run left waiting", res.err)
	}

	held := &headHeld{Store: st, session: "session_test/2.0", entered: make(chan struct{}), release: make(chan struct{})}
	defer close(held.release)
	deps = testDeps(askingTree(), toolBox(t, echoTool(t, dispatchNeedsApproval)))
	deps.Env.Store = held
	deps.People.Approver = conductor.ApproveLater
	deps.Hooks.AfterTool("keep", 0, func(context.Context, contract.ToolCall, *contract.ToolOutcome) error { return nil })
	b := newAgent(t, twoDelegates(), deps)
	if _, err := b.Reopen(ctxT(t), "session_test"); err != nil {
		t.Fatal(err)
	}
	<-held.entered
	if err := b.Abort(ctxT(t), contract.AbortNow); err != nil {
		t.Fatalf("abort: %v", err)
	}
	if snap := b.Snapshot(); snap.Phase != contract.PhaseFaulted {
		t.Fatalf("the parent is %s after its abort", snap.Phase)
	}
	_ = b.Close()
	checkDAG(t, st, "session_test", 1)
	if err := store.Replay(ctxT(t), st, cadence.New(twoDelegates()), "session_test"); err != nil {
		t.Errorf("replay: %v", err)
	}
}
