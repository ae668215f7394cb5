package conductor_test

import (
	"context"
	"errors"
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/batonrt/baton/conductor"
	"github.com/batonrt/baton/contract"
)

var (
	always = conductor.Decision{Approved: true, Scope: contract.ScopeSession}
	once   = conductor.Decision{Approved: true, Scope: contract.ScopeOnce}
	deny   = conductor.Decision{Reason: "not that one"}
)

// twoEchoes starts a run whose model calls echo, which needs approval
// and derives no keys (so approving it for the session allows both), on
// c1 and c2, and returns once both wait for approval. done yields the
// run's snapshot.
func twoEchoes(t *testing.T, approver conductor.Approver) (a *conductor.Agent, done <-chan contract.RunSnapshot) {
	t.Helper()
	model := &fakeModel{replies: []replyFunc{
		callTools(call{"c1", "echo", `{"text":"one"}`}, call{"c2", "echo", `{"text":"two"}`}),
		say("done"),
	}}
	deps := testDeps(model, toolBox(t, echoTool(t, dispatchNeedsApproval)))
	deps.People.Approver = approver
	a = newAgent(t, contract.AgentConfig{}, deps)
	out := make(chan contract.RunSnapshot, 1)
	ended := make(chan struct{})
	go func() {
		defer close(ended)
		snap, _ := a.Submit(ctxT(t), conductor.Text("go"))
		out <- snap
	}()
	t.Cleanup(func() {
		_ = a.Abort(context.Background(), contract.AbortNow)
		<-ended
	})
	waitFor(t, func() bool {
		s := a.Snapshot()
		return len(s.Pending) == 2 && s.Pending[0].State == contract.CallAwaitingApproval && s.Pending[1].State == contract.CallAwaitingApproval
	})
	return a, out
}

// outcomes are the calls' results as "id: content", errors marked.
func outcomes(s contract.RunSnapshot) []string {
	var out []string
	for _, r := range results(s) {
		mark := ""
		if r.IsError {
			mark = "error "
		}
		out = append(out, r.CallID+": "+mark+r.Content)
	}
	return out
}

// TestApproveCallsAppliesEachCallsOwnDecisionFirst: decisions on two
// calls given together, an "always" on one and a denial or a
// once-approval of the other, each decide their own call, whatever
// their order: the "always" does not take the other call with it.
func TestApproveCallsAppliesEachCallsOwnDecisionFirst(t *testing.T) {
	for _, tc := range []struct {
		name string
		ds   []conductor.CallDecision
		want []string
	}{
		{"always then a denial", []conductor.CallDecision{{CallID: "c1", Decision: always}, {CallID: "c2", Decision: deny}}, []string{"c1: one", "c2: error error: the user denied this call: not that one"}},
		{"a denial then always", []conductor.CallDecision{{CallID: "c2", Decision: deny}, {CallID: "c1", Decision: always}}, []string{"c1: one", "c2: error error: the user denied this call: not that one"}},
		{"always twice", []conductor.CallDecision{{CallID: "c1", Decision: always}, {CallID: "c2", Decision: always}}, []string{"c1: one", "c2: two"}},
		{"always then once", []conductor.CallDecision{{CallID: "c1", Decision: always}, {CallID: "c2", Decision: once}}, []string{"c1: one", "c2: two"}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			a, done := twoEchoes(t, conductor.ApproveLater)
			if err := a.ApproveCalls(ctxT(t), nil, tc.ds); err != nil {
				t.Fatalf("ApproveCalls: %v", err)
			}
			if diff := cmp.Diff(tc.want, outcomes(<-done)); diff != "" {
				t.Errorf("results mismatch (-want +got):\n%s", diff)
			}
		})
	}
}

// TestApproveCallsDecidesNothingWhenOneCannotBe: a decision on a call
// that does not await approval (unknown, or named twice) refuses them
// all, so the caller knows no call was decided.
func TestApproveCallsDecidesNothingWhenOneCannotBe(t *testing.T) {
	for _, tc := range []struct {
		name string
		ds   []conductor.CallDecision
	}{
		{"unknown call", []conductor.CallDecision{{CallID: "c1", Decision: once}, {CallID: "c9", Decision: deny}}},
		{"named twice", []conductor.CallDecision{{CallID: "c1", Decision: once}, {CallID: "c2", Decision: deny}, {CallID: "c1", Decision: deny}}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			a, _ := twoEchoes(t, conductor.ApproveLater)
			if err := a.ApproveCalls(ctxT(t), nil, tc.ds); !errors.Is(err, conductor.ErrRejected) {
				t.Fatalf("ApproveCalls: %v, want ErrRejected", err)
			}
			var states []contract.CallState
			for _, p := range a.Snapshot().Pending {
				states = append(states, p.State)
			}
			if diff := cmp.Diff([]contract.CallState{contract.CallAwaitingApproval, contract.CallAwaitingApproval}, states); diff != "" {
				t.Errorf("calls decided by a refused batch (-want +got):\n%s", diff)
			}
		})
	}
}
