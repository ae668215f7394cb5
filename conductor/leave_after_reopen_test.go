package conductor_test

import (
	"context"
	"sync/atomic"
	"testing"

	"github.com/batonrt/baton/conductor"
	"github.com/batonrt/baton/contract"
	"github.com/batonrt/baton/dispatch"
	"github.com/batonrt/baton/store"
)

// TestLeaveRightAfterReopenKeepsAChildQuestionOpen: an agent that leaves
// right after Reopen, while its delegate's child is picking its run up
// again, records nothing of the tree: the child's question stays open
// in the store, and the next agent asks it again and finishes the tree.
func TestLeaveRightAfterReopenKeepsAChildQuestionOpen(t *testing.T) {
	for name, tree := range map[string]func() (contract.AgentConfig, agentsModel){"child": askerTree, "grandchild": askerTwoDown} {
		t.Run(name, func(t *testing.T) {
			st := store.NewMemory()
			cfg, model := closeAsking(t, st, tree)
			deps := testDeps(model, toolBox(t, dispatch.AskHuman("")))
			deps.Env.Store = st
			a := newAgent(t, cfg, deps)
			if _, err := a.Reopen(ctxT(t), "session_test"); err != nil {
				t.Fatal(err)
			}
			if err := a.Leave(); err != nil {
				t.Fatal(err)
			}
			recordsNoAbort(t, st)
			resumeAnswering(t, st, cfg, model)
		})
	}
}

// TestLeaveRightAfterReopenMidGrandchildRecordsNothing: a tree left
// while its grandchildren call their model, reopened and left again at
// once, records no abort anywhere; the next Resume finishes it.
func TestLeaveRightAfterReopenMidGrandchildRecordsNothing(t *testing.T) {
	cfg, model := twoLevels()
	var calls atomic.Int32
	leaf := model["leaf"]
	release := make(chan struct{})
	model["leaf"] = func(ctx context.Context, req contract.ModelRequest) replyFunc {
		calls.Add(1)
		return blockUntil(release, leaf(ctx, req))
	}
	st := store.NewMemory()
	deps := testDeps(model, toolBox(t))
	deps.Env.Store = st
	a, err := conductor.CreateAgent(cfg, deps)
	if err != nil {
		t.Fatal(err)
	}
	done := submitAsync(a, "go")
	waitFor(t, func() bool { return calls.Load() == 2 })
	if err := a.Leave(); err != nil {
		t.Fatal(err)
	}
	<-done
	b, err := conductor.CreateAgent(cfg, deps)
	if err != nil {
		t.Fatal(err)
	}
	if _, err := b.Reopen(ctxT(t), "session_test"); err != nil {
		t.Fatal(err)
	}
	if err := b.Leave(); err != nil {
		t.Fatal(err)
	}
	recordsNoAbort(t, st)
	close(release)
	snap, err := newAgent(t, cfg, deps).Resume(ctxT(t), "session_test")
	if err != nil || snap.Phase != contract.PhaseSettled {
		t.Fatalf("resume ended %s with %v, want settled", snap.Phase, err)
	}
}

// recordsNoAbort fails t for every session of st that records an abort:
// an agent that left was to record nothing of its tree.
func recordsNoAbort(t *testing.T, st store.Store) {
	t.Helper()
	sessions, err := st.Sessions(ctxT(t))
	if err != nil {
		t.Fatal(err)
	}
	for _, id := range sessions {
		recs, err := st.Records(ctxT(t), id)
		if err != nil {
			t.Fatal(err)
		}
		for _, r := range recs {
			if r.Signal.SignalKind() == contract.SigAbortRequested {
				t.Errorf("session %s records an abort after the agent left", id)
			}
		}
	}
}
