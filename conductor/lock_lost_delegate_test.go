package conductor_test

import (
	"context"
	"errors"
	"testing"
	"time"

	"github.com/batonrt/baton/conductor"
	"github.com/batonrt/baton/contract"
	"github.com/batonrt/baton/store"
)

// delegatingRun is a parent agent on a store whose locks a test can take
// away, its run in flight with its delegate's child in a model call that
// waits for its context to end.
type delegatingRun struct {
	a            *conductor.Agent
	st           store.Store
	b            *losableBackend
	done         chan error    // Submit's error
	childStopped chan struct{} // closed when the child's call ends
}

// startDelegatingRun starts the run and returns once the child is in its
// model call.
func startDelegatingRun(t *testing.T) *delegatingRun {
	t.Helper()
	r := &delegatingRun{done: make(chan error, 1), childStopped: make(chan struct{})}
	childStarted := make(chan struct{})
	model := agentsModel{
		"parent": delegateOnce(call{"c1", "delegate_researcher", `{"task":"facts"}`}),
		"researcher": func(ctx context.Context, _ contract.ModelRequest) replyFunc {
			close(childStarted)
			<-ctx.Done()
			close(r.childStopped)
			return say("too late")
		},
	}
	r.b = newLosableBackend()
	r.st = store.New(r.b)
	deps := testDeps(model, toolBox(t, echoTool(t)))
	deps.Env.Store = r.st
	r.a = newAgent(t, twoDelegates(), deps)
	go func() {
		_, err := r.a.Submit(ctxT(t), conductor.Text("go"))
		r.done <- err
	}()
	select {
	case <-childStarted:
	case <-time.After(10 * time.Second):
		t.Fatal("the child did not start within 10 s")
	}
	return r
}

// wantLockLost waits for Submit to fail with ErrLockLost after what.
func (r *delegatingRun) wantLockLost(t *testing.T, what string) {
	t.Helper()
	select {
	case err := <-r.done:
		if !errors.Is(err, store.ErrLockLost) {
			t.Errorf("Submit: got %v, want an error matching store.ErrLockLost", err)
		}
	case <-time.After(10 * time.Second):
		t.Fatalf("Submit did not return 10 s after %s", what)
	}
}

// A delegate's child that loses its session's lock stops, and so must
// its parent: the process no longer drives the delegation tree, and the
// parent must not write the child's stop into its own session as the
// call's failure, or the process that takes the tree over finds the
// delegate call answered with an error its model then reads, instead of
// the child's run to pick up again.
func TestLostLockOfADelegatesChildLeavesTheCallUnanswered(t *testing.T) {
	r := startDelegatingRun(t)
	r.b.takeAllBut(r.a.SessionID())
	r.wantLockLost(t, "the child's lock was lost")
	records, err := r.st.Records(ctxT(t), r.a.SessionID())
	if err != nil {
		t.Fatal(err)
	}
	for _, rec := range records {
		if s, ok := rec.Signal.(contract.DelegateSettled); ok {
			t.Errorf("the parent's session answered the delegate call %s with %q", s.CallID, s.Outcome.Content)
		}
	}
}

// An agent that loses its session's lock while a delegate's child runs
// stops the child, and leaves the child's run as the store has it, in
// flight, for the process that takes the tree over: stopping it must not
// write an abort into the child's session, or that process finds the
// child aborted and its parent's call failed with it.
func TestLostLockOfADelegatingAgentLeavesItsChildInFlight(t *testing.T) {
	r := startDelegatingRun(t)
	r.b.take(r.a.SessionID())
	r.wantLockLost(t, "the lock was lost")
	select {
	case <-r.childStopped:
	case <-time.After(10 * time.Second):
		t.Fatal("the child's model call still runs 10 s after its parent lost its lock")
	}
	sessions, err := r.st.Sessions(ctxT(t))
	if err != nil {
		t.Fatal(err)
	}
	for _, session := range sessions {
		records, err := r.st.Records(ctxT(t), session)
		if err != nil {
			t.Fatal(err)
		}
		for _, rec := range records {
			if _, ok := rec.Signal.(contract.AbortRequested); ok {
				t.Errorf("session %s: stopping the tree wrote an abort at step %d", session, rec.Step)
			}
		}
	}
}
