package conductor_test

import (
	"errors"
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/batonrt/baton/conductor"
	"github.com/batonrt/baton/contract"
)

// TestAbortedChildrenEndOnTheStream: a parent aborted while its delegate's
// child waits publishes, on the parent's own stream, subflow_failed for the
// child it gave up on before the call's result, so a client that showed the
// child start shows it end. Before, the stream had subflow_started and no
// end for it.
func TestAbortedChildrenEndOnTheStream(t *testing.T) {
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
	waitFor(t, func() bool {
		rec.mu.Lock()
		defer rec.mu.Unlock()
		for _, ev := range rec.events {
			if ev.Kind == contract.EvApprovalRequested && len(ev.Subflow) == 1 {
				return true
			}
		}
		return false
	})
	if err := a.Abort(ctxT(t), contract.AbortNow); err != nil {
		t.Fatal(err)
	}
	if res := <-done; !errors.Is(res.err, contract.ErrAborted) {
		t.Fatalf("submit = %v, want aborted", res.err)
	}
	waitFor(t, func() bool {
		rec.mu.Lock()
		defer rec.mu.Unlock()
		for _, ev := range rec.events {
			if ev.Kind == contract.EvRunFaulted && len(ev.Subflow) == 0 {
				return true
			}
		}
		return false
	})
	var got []string
	rec.mu.Lock()
	for _, ev := range rec.events {
		switch {
		case len(ev.Subflow) > 0 || ev.Kind == contract.EvToolCallDelta:
		case ev.Call != nil && ev.Call.ID == "c1", ev.Result != nil && ev.Result.CallID == "c1":
			got = append(got, string(ev.Kind))
		}
	}
	rec.mu.Unlock()
	want := []string{"tool_call", "subflow_started", "subflow_failed", "tool_result"}
	if diff := cmp.Diff(want, got); diff != "" {
		t.Errorf("the parent's events of the delegate call (-want +got):\n%s", diff)
	}
}
