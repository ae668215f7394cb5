package conductor_test

import (
	"context"
	"errors"
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/batonrt/baton/conductor"
	"github.com/batonrt/baton/contract"
)

// TestDecisionOfAnUnknownScopeIsRefused: a decision whose scope is
// neither once nor session (a typo, "Session") is refused with
// ErrRejected and decides nothing, however the host gives it; the call
// still waits, and a decision given right then takes it.
func TestDecisionOfAnUnknownScopeIsRefused(t *testing.T) {
	bad := conductor.Decision{Approved: true, Scope: "Session"}
	for _, tc := range []struct {
		name   string
		decide func(context.Context, *conductor.Agent) error
	}{
		{"Approve", func(ctx context.Context, a *conductor.Agent) error { return a.Approve(ctx, "c1", bad) }},
		{"ApproveSubflow", func(ctx context.Context, a *conductor.Agent) error {
			return a.ApproveSubflow(ctx, nil, "c1", bad)
		}},
		{"ApproveCalls", func(ctx context.Context, a *conductor.Agent) error {
			return a.ApproveCalls(ctx, nil, []conductor.CallDecision{{CallID: "c2", Decision: once}, {CallID: "c1", Decision: bad}})
		}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			ctx := ctxT(t)
			a, done := twoEchoes(t, conductor.ApproveLater)
			if err := tc.decide(ctx, a); !errors.Is(err, conductor.ErrRejected) {
				t.Fatalf("decision of scope Session: %v, want ErrRejected", err)
			}
			for _, p := range a.Snapshot().Pending {
				if p.State != contract.CallAwaitingApproval {
					t.Errorf("call %s is %s after a refused decision, want it awaiting approval", p.Call.ID, p.State)
				}
			}
			if err := a.ApproveCalls(ctx, nil, []conductor.CallDecision{{CallID: "c1", Decision: once}, {CallID: "c2", Decision: deny}}); err != nil {
				t.Fatal(err)
			}
			want := []string{"c1: one", "c2: error error: the user denied this call: not that one"}
			if diff := cmp.Diff(want, outcomes(<-done)); diff != "" {
				t.Errorf("results mismatch (-want +got):\n%s", diff)
			}
		})
	}
}

// TestApproverDecisionOfAnUnknownScopeDenies: an Approver that returns
// a scope neither once nor session has failed, and a failed approver
// denies the call; the session never records the scope.
func TestApproverDecisionOfAnUnknownScopeDenies(t *testing.T) {
	m := &fakeModel{replies: []replyFunc{callTools(call{"c1", "echo", `{"text":"one"}`}), say("done")}}
	deps := testDeps(m, toolBox(t, echoTool(t, dispatchNeedsApproval)))
	deps.People.Approver = func(context.Context, conductor.ApprovalRequest) (conductor.Decision, error) {
		return conductor.Decision{Approved: true, Scope: "forever"}, nil
	}
	a := newAgent(t, contract.AgentConfig{}, deps)
	rec := &recorder{}
	a.Subscribe(rec.add)
	snap, err := a.Submit(ctxT(t), conductor.Text("go"))
	if err != nil {
		t.Fatal(err)
	}
	want := []string{`c1: error error: the user denied this call: the approver failed: conductor: rejected: approval scope "forever" is neither once nor session`}
	if diff := cmp.Diff(want, outcomes(snap)); diff != "" {
		t.Errorf("results mismatch (-want +got):\n%s", diff)
	}
	if err := a.Flush(ctxT(t)); err != nil {
		t.Fatal(err)
	}
	rec.mu.Lock()
	defer rec.mu.Unlock()
	for _, ev := range rec.events {
		if ev.Kind == contract.EvApprovalResolved && ev.Scope != contract.ScopeOnce {
			t.Errorf("approval_resolved of scope %q, want once", ev.Scope)
		}
	}
}
