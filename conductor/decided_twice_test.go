package conductor_test

import (
	"context"
	"errors"
	"testing"

	"github.com/batonrt/baton/conductor"
	"github.com/batonrt/baton/contract"
	"github.com/batonrt/baton/dispatch"
)

// TestSecondDecisionDoesNotReachAChild: two hosts decide the run's own
// call_1 at once while a delegate's child waits on a call_1 of its own.
// The second is refused: it used to fall through to the child and decide
// a call nobody had been shown.
func TestSecondDecisionDoesNotReachAChild(t *testing.T) {
	for _, tc := range []struct {
		name, tool, args string
		decide           func(a *conductor.Agent) error
	}{
		{"approval", "echo", `{"text":"ink"}`, func(a *conductor.Agent) error {
			return a.Approve(ctxT(t), "call_1", conductor.Decision{Approved: true})
		}},
		{"question", dispatch.AskHumanName, `{"question":"which?"}`, func(a *conductor.Agent) error {
			return a.Answer(context.Background(), "call_1", "this one")
		}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			model := agentsModel{
				"parent": delegateOnce(call{"call_1", tc.tool, tc.args}, call{"c_w", "delegate_writer", `{"task":"write"}`}),
				"writer": delegateOnce(call{"call_1", tc.tool, tc.args}),
			}
			deps := testDeps(model, toolBox(t, echoTool(t, dispatchNeedsApproval), dispatch.AskHuman("")))
			deps.People.Approver = conductor.ApproveLater
			cfg := twoDelegates()
			cfg.Tools = []contract.ToolDescriptor{{Name: tc.tool}}
			cfg.Delegates[1].Config.Tools = []contract.ToolDescriptor{{Name: tc.tool}}
			a := newAgent(t, cfg, deps)
			done := make(chan struct{})
			go func() {
				defer close(done)
				_, _ = a.Submit(ctxT(t), conductor.Text("go"))
			}()
			defer func() { _ = a.Abort(ctxT(t), contract.AbortNow); <-done }()
			waitFor(t, func() bool {
				asks, err := a.SubflowAsks(ctxT(t))
				return err == nil && len(asks) == 1 && len(a.Snapshot().Pending) == 2 && a.Snapshot().Phase == contract.PhaseAwaitingTools
			})
			if err := tc.decide(a); err != nil {
				t.Fatalf("first decision: %v", err)
			}
			if err := tc.decide(a); !errors.Is(err, conductor.ErrRejected) {
				t.Errorf("second decision of the run's own call_1: %v, want ErrRejected", err)
			}
			asks, err := a.SubflowAsks(ctxT(t))
			if err != nil {
				t.Fatal(err)
			}
			if len(asks) != 1 {
				t.Errorf("the child's call_1 was decided by a decision on the run's own: still asking %v", asks)
			}
		})
	}
}
