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
			return a.Approve(ctxT(t), "c1", conductor.Decision{Approved: true})
		}},
		{"approve calls", riskyTool, contract.PhaseAwaitingApproval, func(a *conductor.Agent) error {
			return a.ApproveCalls(ctxT(t), nil, []conductor.CallDecision{{CallID: "c1", Decision: conductor.Decision{Approved: true}}})
		}},
		{"approve subflow", riskyTool, contract.PhaseAwaitingApproval, func(a *conductor.Agent) error {
			return a.ApproveSubflow(ctxT(t), nil, "c1", conductor.Decision{Approved: true})
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
			return a.Abort(ctxT(t), contract.AbortNow)
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

// TestChildDecisionTheStoreCouldNotRecordIsAnError: a decision or an
// answer for a delegate's child, whether named by its path or offered
// down the tree by call id alone, is taken only once the child's store
// records it. Refused, the child's run and its parent's stop with a
// store error, and the call that handed it in says so: not nil, and not
// ErrRejected, which would tell the host no run had such a call.
func TestChildDecisionTheStoreCouldNotRecordIsAnError(t *testing.T) {
	for _, tc := range []struct {
		name string
		ask  bool
		send func(a *conductor.Agent, callID string, path []string) error
	}{
		{"approve", false, func(a *conductor.Agent, id string, _ []string) error {
			return a.Approve(ctxT(t), id, conductor.Decision{Approved: true})
		}},
		{"approve subflow", false, func(a *conductor.Agent, id string, path []string) error {
			return a.ApproveSubflow(ctxT(t), path, id, conductor.Decision{Approved: true})
		}},
		{"approve calls", false, func(a *conductor.Agent, id string, path []string) error {
			return a.ApproveCalls(ctxT(t), path, []conductor.CallDecision{{CallID: id, Decision: conductor.Decision{Approved: true}}})
		}},
		{"answer", true, func(a *conductor.Agent, id string, _ []string) error {
			return a.Answer(context.Background(), id, "Bergen")
		}},
		{"answer subflow", true, func(a *conductor.Agent, id string, path []string) error {
			return a.AnswerSubflow(context.Background(), path, id, "Bergen")
		}},
		{"answer call", true, func(a *conductor.Agent, id string, path []string) error {
			return a.AnswerCall(context.Background(), path, conductor.CallAnswer{CallID: id, Answer: "Bergen"})
		}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			// The child's records: submitted, its reply, then the decision.
			st := &failOnceStore{Store: store.NewMemory(), prefix: "session_test/", n: 3}
			var deps conductor.Deps
			var cfg contract.AgentConfig
			if tc.ask {
				var model agentsModel
				cfg, model = askerTree()
				deps = testDeps(model, toolBox(t, dispatch.AskHuman("")))
			} else {
				cfg = twoDelegates()
				deps = testDeps(agentsModel{
					"parent": delegateOnce(call{"c1", "delegate_writer", `{"task":"write"}`}),
					"writer": delegateOnce(call{"w1", "echo", `{"text":"ink"}`}),
				}, toolBox(t, echoTool(t, dispatchNeedsApproval)))
				deps.People.Approver = conductor.ApproveLater
			}
			deps.Env.Store = st
			a := newAgent(t, cfg, deps)
			done := submitAsync(a, "go")
			var asked contract.RunEvent
			waitFor(t, func() bool {
				asks, err := a.SubflowAsks(ctxT(t))
				if err != nil || len(asks) != 1 {
					return false
				}
				asked = asks[0]
				return true
			})
			err := tc.send(a, asked.Call.ID, asked.Subflow)
			if !errors.Is(err, contract.ErrStore) {
				t.Errorf("decision the child's store refused: err %v, want a store error", err)
			}
			res := <-done
			if !errors.Is(res.err, contract.ErrStore) {
				t.Errorf("submit: err %v, want a store error", res.err)
			}
		})
	}
}
