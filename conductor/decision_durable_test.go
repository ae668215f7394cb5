package conductor_test

import (
	"context"
	"errors"
	"testing"

	"github.com/batonrt/baton/conductor"
	"github.com/batonrt/baton/contract"
	"github.com/batonrt/baton/dispatch"
	"github.com/batonrt/baton/store"
)

// TestDecisionTheStoreCouldNotRecordIsAnError: a person's answer or
// approval decision is taken only once it is durable. When the store
// refuses its record, the run ends with a store error, and the call that
// handed the decision in must say so too, as Approve and Steer do: a host
// told nil would tell the person their answer was taken.
func TestDecisionTheStoreCouldNotRecordIsAnError(t *testing.T) {
	for _, tc := range []struct {
		name  string
		tool  func(t *testing.T) dispatch.Tool
		phase contract.Phase
		send  func(a *conductor.Agent) error
	}{
		{"approve", riskyTool, contract.PhaseAwaitingApproval, func(a *conductor.Agent) error {
			return a.Approve("c1", conductor.Decision{Approved: true})
		}},
		{"approve calls", riskyTool, contract.PhaseAwaitingApproval, func(a *conductor.Agent) error {
			return a.ApproveCalls(nil, []conductor.CallDecision{{CallID: "c1", Decision: conductor.Decision{Approved: true}}})
		}},
		{"approve subflow", riskyTool, contract.PhaseAwaitingApproval, func(a *conductor.Agent) error {
			return a.ApproveSubflow(nil, "c1", conductor.Decision{Approved: true})
		}},
		{"answer", askTool, contract.PhaseAwaitingHuman, func(a *conductor.Agent) error {
			return a.Answer(context.Background(), "c1", "Oslo")
		}},
		{"answer call", askTool, contract.PhaseAwaitingHuman, func(a *conductor.Agent) error {
			return a.AnswerCall(context.Background(), nil, conductor.CallAnswer{CallID: "c1", Answer: "Oslo"})
		}},
		{"answer subflow", askTool, contract.PhaseAwaitingHuman, func(a *conductor.Agent) error {
			return a.AnswerSubflow(context.Background(), nil, "c1", "Oslo")
		}},
		{"abort", riskyTool, contract.PhaseAwaitingApproval, func(a *conductor.Agent) error {
			return a.Abort(contract.AbortNow)
		}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			tool := tc.tool(t)
			m := &fakeModel{replies: []replyFunc{callTools(call{"c1", tool.Descriptor().Name, `{"question":"Where?"}`}), say("done")}}
			deps := testDeps(m, toolBox(t, tool))
			deps.People.Approver = conductor.ApproveLater
			// The submit's and the reply's records are all the store takes.
			deps.Env.Store = &crashingStore{Store: store.NewMemory(), after: 2}
			a := newAgent(t, contract.AgentConfig{}, deps)
			done := submitAsync(a, "go")
			waitPhase(t, a, tc.phase)
			err := tc.send(a)
			res := <-done
			if !errors.Is(err, contract.ErrStore) {
				t.Errorf("decision the store refused: err %v, want a store error", err)
			}
			if !errors.Is(res.err, contract.ErrStore) {
				t.Errorf("submit: err %v, want a store error", res.err)
			}
			if res.snap.Phase != tc.phase {
				t.Errorf("submit: phase %s, want the last durable one, %s", res.snap.Phase, tc.phase)
			}
		})
	}
}

func riskyTool(t *testing.T) dispatch.Tool {
	return rawTool(t, "risky", okTool, dispatch.NeedsApproval())
}

func askTool(*testing.T) dispatch.Tool { return dispatch.AskHuman("") }
