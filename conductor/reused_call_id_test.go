package conductor_test

import (
	"context"
	"errors"
	"sync"
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/batonrt/baton/conductor"
	"github.com/batonrt/baton/contract"
	"github.com/batonrt/baton/dispatch"
)

// askedCalls records the approval requests an agent was handed, and
// leaves each for a later decision.
type askedCalls struct {
	mu   sync.Mutex
	reqs []conductor.ApprovalRequest
}

func (r *askedCalls) approver(_ context.Context, req conductor.ApprovalRequest) (conductor.Decision, error) {
	r.mu.Lock()
	defer r.mu.Unlock()
	r.reqs = append(r.reqs, req)
	return conductor.Decision{}, conductor.ErrApproveLater
}

func (r *askedCalls) all() []conductor.ApprovalRequest {
	r.mu.Lock()
	defer r.mu.Unlock()
	return append([]conductor.ApprovalRequest(nil), r.reqs...)
}

// waitsAt waits until the agent's run waits for a person on call_0 of
// the turn.
func waitsAt(t *testing.T, a *conductor.Agent, turn int) contract.RunSnapshot {
	t.Helper()
	waitFor(t, func() bool {
		s := a.Snapshot()
		return s.Turns == turn && len(s.Pending) == 1 && (s.Pending[0].State == contract.CallAwaitingApproval || s.Pending[0].State == contract.CallAwaitingHuman)
	})
	return a.Snapshot()
}

// TestAnswersReachOnlyTheCallTheyWereGivenFor: a model that numbers its
// calls call_0 in every reply asks a person twice under one id, once per
// turn (the first ask steered past) or once per run (the first run
// aborted). A decision or an answer that names the first ask's run and
// turn is refused, and the call waiting now keeps waiting; named for the
// call waiting now, it is taken.
func TestAnswersReachOnlyTheCallTheyWereGivenFor(t *testing.T) {
	type give func(a *conductor.Agent, runID string, turn int) error
	approve := func(a *conductor.Agent, runID string, turn int) error {
		return a.ApproveCalls(ctxT(t), nil, []conductor.CallDecision{{CallID: "call_0", Decision: once, RunID: runID, Turn: turn}})
	}
	answer := func(a *conductor.Agent, runID string, turn int) error {
		return a.AnswerCall(ctxT(t), nil, conductor.CallAnswer{CallID: "call_0", Answer: "Oslo", RunID: runID, Turn: turn})
	}
	for _, tc := range []struct {
		name      string
		tool      string
		args      [2]string
		give      give
		nextRun   bool // the first ask's run is aborted and a second run asks
		wantFirst string
	}{
		{"an approval after a steer", "echo", [2]string{`{"text":"first"}`, `{"text":"second"}`}, approve, false, "second"},
		{"an approval after an abort", "echo", [2]string{`{"text":"first"}`, `{"text":"second"}`}, approve, true, "second"},
		{"an answer after a steer", "ask_human", [2]string{`{"question":"Which city?"}`, `{"question":"Which town?"}`}, answer, false, "Oslo"},
		{"an answer after an abort", "ask_human", [2]string{`{"question":"Which city?"}`, `{"question":"Which town?"}`}, answer, true, "Oslo"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			model := &fakeModel{replies: []replyFunc{
				callTools(call{"call_0", tc.tool, tc.args[0]}),
				callTools(call{"call_0", tc.tool, tc.args[1]}),
				say("done"),
			}}
			var asked askedCalls
			deps := testDeps(model, toolBox(t, echoTool(t, dispatchNeedsApproval), dispatch.AskHuman("")))
			deps.People.Approver = asked.approver
			a := newAgent(t, contract.AgentConfig{}, deps)
			done := submitAsync(a, "go")
			first := waitsAt(t, a, 1)
			if tc.nextRun {
				if err := a.Abort(ctxT(t), contract.AbortNow); err != nil {
					t.Fatal(err)
				}
				<-done
				done = submitAsync(a, "again")
			} else if err := a.Steer(ctxT(t), conductor.Text("try again")); err != nil {
				t.Fatal(err)
			}
			wantTurn := 2
			if tc.nextRun {
				wantTurn = 1
			}
			second := waitsAt(t, a, wantTurn)
			if second.RunID == first.RunID && second.Turns == first.Turns {
				t.Fatalf("both asks are of run %q turn %d", first.RunID, first.Turns)
			}

			err := tc.give(a, first.RunID, first.Turns)
			if !errors.Is(err, conductor.ErrRejected) {
				t.Fatalf("given for the first ask: %v, want ErrRejected", err)
			}
			if s := a.Snapshot(); len(s.Pending) != 1 || s.Pending[0].Call.Arguments != tc.args[1] || s.Pending[0].State == contract.CallDone {
				t.Fatalf("the second ask was answered by what was given for the first: %+v", s.Pending)
			}
			if err := tc.give(a, second.RunID, second.Turns); err != nil {
				t.Fatalf("given for the second ask: %v", err)
			}
			res := <-done
			if res.err != nil {
				t.Fatal(res.err)
			}
			got := results(res.snap)
			if diff := cmp.Diff(tc.wantFirst, got[len(got)-1].Content); diff != "" {
				t.Errorf("the second call's result mismatch (-want +got):\n%s", diff)
			}
			if tc.tool != "echo" {
				return
			}
			var keys [][2]any
			for _, req := range asked.all() {
				keys = append(keys, [2]any{req.RunID, req.Turn})
			}
			want := [][2]any{{first.RunID, first.Turns}, {second.RunID, second.Turns}}
			if diff := cmp.Diff(want, keys); diff != "" {
				t.Errorf("approval requests' run and turn mismatch (-want +got):\n%s", diff)
			}
		})
	}
}
