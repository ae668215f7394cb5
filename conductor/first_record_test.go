package conductor_test

import (
	"errors"
	"testing"

	"github.com/batonrt/baton/conductor"
	"github.com/batonrt/baton/contract"
	"github.com/batonrt/baton/store"
)

// TestRefusedFirstRecordLeavesTheSessionFree: the store refuses the
// first record of a new session, its submit. Nothing of the session is
// stored, so there is nothing to Resume: the Submit reports the store's
// error, the agent does not refuse work from then on, the session's lock
// is free, and the next Submit starts the session afresh.
func TestRefusedFirstRecordLeavesTheSessionFree(t *testing.T) {
	ctx := ctxT(t)
	base := store.NewMemory()
	deps := testDeps(&fakeModel{replies: []replyFunc{say("hello")}}, nil)
	deps.Env.Store = &failOnceStore{Store: base, prefix: "session_test", n: 1}
	a := newAgent(t, contract.AgentConfig{}, deps)

	snap, err := a.Submit(ctx, conductor.Text("hi"))
	if !errors.Is(err, contract.ErrStore) || !errors.Is(err, errCrash) {
		t.Fatalf("Submit: got %v, want the store's error", err)
	}
	if snap.Phase != contract.PhaseIdle || snap.Steps != 0 {
		t.Errorf("Submit's snapshot: phase %s at step %d, want idle at step 0", snap.Phase, snap.Steps)
	}
	if err := a.Failed(); err != nil {
		t.Errorf("Failed: %v, want nil: nothing of the session is stored", err)
	}
	if _, err := base.Head(ctx, "session_test"); !errors.Is(err, store.ErrNotFound) {
		t.Fatalf("head of the session: %v, want store.ErrNotFound", err)
	}
	lease, err := base.Lease(ctx, "session_test")
	if err != nil {
		t.Fatalf("the session's lock is still held: %v", err)
	}
	_ = lease.Release()

	snap, err = a.Submit(ctx, conductor.Text("hi"))
	if err != nil || snap.Phase != contract.PhaseSettled {
		t.Fatalf("Submit again: phase %s, err %v", snap.Phase, err)
	}
	if last, _ := snap.History.Last(); last.Text() != "hello" {
		t.Errorf("last turn %q, want the model's reply", last.Text())
	}
}
