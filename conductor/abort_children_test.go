package conductor_test

import (
	"errors"
	"testing"
	"time"

	"github.com/batonrt/baton/conductor"
	"github.com/batonrt/baton/contract"
)

// TestAbortAfterToolsReachesChildWaitingForApproval: the parent's
// AbortAfterTools while a delegate's child waits for an approval must end
// the run, as the parent's own open approvals are answered by an abort:
// "Abort reaches the children". Nobody ever answers the child's approval.
func TestAbortAfterToolsReachesChildWaitingForApproval(t *testing.T) {
	for _, mode := range []contract.AbortMode{contract.AbortNow, contract.AbortAfterReply, contract.AbortAfterTools} {
		t.Run(string(mode), func(t *testing.T) { abortWithChildWaitingForApproval(t, mode) })
	}
}

// childWaitingForApproval starts a run whose delegate call c1's child
// waits for an approval of its echo call, nobody answering it, and
// returns once the child asked: the agent, what it published so far,
// and the run's outcome to come.
func childWaitingForApproval(t *testing.T) (*conductor.Agent, *recorder, <-chan submitted) {
	model := agentsModel{
		"parent": delegateOnce(call{"c1", "delegate_writer", `{"task":"write"}`}),
		"writer": delegateOnce(call{"w1", "echo", `{"text":"ink"}`}),
	}
	deps := testDeps(model, toolBox(t, echoTool(t, dispatchNeedsApproval)))
	deps.People.Approver = conductor.ApproveLater
	a := newAgent(t, twoDelegates(), deps)
	rec := &recorder{}
	a.Subscribe(rec.add)
	done := submitAsync(a, "go")
	waitFor(t, func() bool { return rec.published(contract.EvApprovalRequested, 1) })
	return a, rec, done
}

// published says rec holds an event of the kind at the subflow depth.
func (r *recorder) published(kind contract.EventKind, depth int) bool {
	r.mu.Lock()
	defer r.mu.Unlock()
	for _, ev := range r.events {
		if ev.Kind == kind && len(ev.Subflow) == depth {
			return true
		}
	}
	return false
}

func abortWithChildWaitingForApproval(t *testing.T, mode contract.AbortMode) {
	a, _, done := childWaitingForApproval(t)
	if err := a.Abort(ctxT(t), mode); err != nil {
		t.Fatal(err)
	}
	select {
	case res := <-done:
		if !errors.Is(res.err, contract.ErrAborted) {
			t.Fatalf("submit = %v, want aborted", res.err)
		}
	case <-time.After(5 * time.Second):
		t.Fatalf("%s never reached the child waiting for approval: the run does not settle", mode)
	}
}
