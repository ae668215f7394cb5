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

// A delegate's child that loses its session's lock stops, and so must
// its parent: the process no longer drives the delegation tree, and the
// parent must not write the child's stop into its own session as the
// call's failure, or the process that takes the tree over finds the
// delegate call answered with an error its model then reads, instead of
// the child's run to pick up again.
func TestLostLockOfADelegatesChildLeavesTheCallUnanswered(t *testing.T) {
	childStarted := make(chan struct{})
	model := agentsModel{
		"parent": delegateOnce(call{"c1", "delegate_researcher", `{"task":"facts"}`}),
		"researcher": func(ctx context.Context, _ contract.ModelRequest) replyFunc {
			close(childStarted)
			<-ctx.Done()
			return say("too late")
		},
	}
	b := newLosableBackend()
	st := store.New(b)
	deps := testDeps(model, toolBox(t, echoTool(t)))
	deps.Env.Store = st
	a := newAgent(t, twoDelegates(), deps)

	done := make(chan error, 1)
	go func() {
		_, err := a.Submit(ctxT(t), conductor.Text("go"))
		done <- err
	}()
	select {
	case <-childStarted:
	case <-time.After(10 * time.Second):
		t.Fatal("the child did not start within 10 s")
	}
	b.takeAllBut(a.SessionID())
	select {
	case err := <-done:
		if !errors.Is(err, store.ErrLockLost) {
			t.Errorf("Submit: got %v, want an error matching store.ErrLockLost", err)
		}
	case <-time.After(10 * time.Second):
		t.Fatal("Submit did not return 10 s after the child's lock was lost")
	}
	records, err := st.Records(ctxT(t), a.SessionID())
	if err != nil {
		t.Fatal(err)
	}
	for _, r := range records {
		if s, ok := r.Signal.(contract.DelegateSettled); ok {
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
	childStarted, childStopped := make(chan struct{}), make(chan struct{})
	model := agentsModel{
		"parent": delegateOnce(call{"c1", "delegate_researcher", `{"task":"facts"}`}),
		"researcher": func(ctx context.Context, _ contract.ModelRequest) replyFunc {
			close(childStarted)
			<-ctx.Done()
			close(childStopped)
			return say("too late")
		},
	}
	b := newLosableBackend()
	st := store.New(b)
	deps := testDeps(model, toolBox(t, echoTool(t)))
	deps.Env.Store = st
	a := newAgent(t, twoDelegates(), deps)

	done := make(chan error, 1)
	go func() {
		_, err := a.Submit(ctxT(t), conductor.Text("go"))
		done <- err
	}()
	select {
	case <-childStarted:
	case <-time.After(10 * time.Second):
		t.Fatal("the child did not start within 10 s")
	}
	b.take(a.SessionID())
	select {
	case err := <-done:
		if !errors.Is(err, store.ErrLockLost) {
			t.Errorf("Submit: got %v, want an error matching store.ErrLockLost", err)
		}
	case <-time.After(10 * time.Second):
		t.Fatal("Submit did not return 10 s after the lock was lost")
	}
	select {
	case <-childStopped:
	case <-time.After(10 * time.Second):
		t.Fatal("the child's model call still runs 10 s after its parent lost its lock")
	}
	sessions, err := st.Sessions(ctxT(t))
	if err != nil {
		t.Fatal(err)
	}
	for _, session := range sessions {
		records, err := st.Records(ctxT(t), session)
		if err != nil {
			t.Fatal(err)
		}
		for _, r := range records {
			if _, ok := r.Signal.(contract.AbortRequested); ok {
				t.Errorf("session %s: stopping the tree wrote an abort at step %d", session, r.Step)
			}
		}
	}
}
