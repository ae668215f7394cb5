package conductor_test

import (
	"context"
	"errors"
	"strings"
	"testing"

	"github.com/batonrt/baton/conductor"
	"github.com/batonrt/baton/contract"
	"github.com/batonrt/baton/dispatch"
)

// TestDecidingAChildsCallTwiceSaysItWasDecided: a decision or an answer
// given through the parent for a delegate's child's call that was
// decided or answered already is refused, as one for the parent's own
// call is, saying the call no longer waits, not that no call of the id
// is pending: it is, in the child, still running. Two levels down too.
func TestDecidingAChildsCallTwiceSaysItWasDecided(t *testing.T) {
	for _, depth := range []int{1, 2} {
		for _, kind := range []string{"approve", "answer"} {
			t.Run(kind+" "+string(rune('0'+depth)), func(t *testing.T) {
				started, release := make(chan string, 4), make(chan struct{})
				defer close(release)
				worker := contract.AgentConfig{Model: "gpt-4o", System: "worker", Tools: []contract.ToolDescriptor{{Name: "echo"}, {Name: "ask_human"}, {Name: "slow"}}}
				cfg := contract.AgentConfig{Model: "gpt-4o", System: "parent", Delegates: []contract.Delegate{{Name: "worker", Config: worker}}}
				model := agentsModel{
					"parent": delegateOnce(call{"c1", "delegate_worker", `{"task":"work"}`}),
					// The slow call keeps the batch, and so the decided
					// call, in flight.
					"worker": delegateOnce(call{"w1", "echo", `{"text":"ink"}`}, call{"q1", "ask_human", `{"question":"Which city?"}`}, call{"s1", "slow", `{}`}),
				}
				if depth == 2 {
					cfg = contract.AgentConfig{Model: "gpt-4o", System: "parent", Delegates: []contract.Delegate{{Name: "mid", Config: contract.AgentConfig{Model: "gpt-4o", System: "mid", Delegates: []contract.Delegate{{Name: "worker", Config: worker}}}}}}
					model["parent"] = delegateOnce(call{"c1", "delegate_mid", `{"task":"work"}`})
					model["mid"] = delegateOnce(call{"m1", "delegate_worker", `{"task":"work"}`})
				}
				deps := testDeps(model, toolBox(t, echoTool(t, dispatchNeedsApproval), dispatch.AskHuman(""), gateTool(t, "slow", started, release)))
				deps.People.Approver = conductor.ApproveLater
				a := newAgent(t, cfg, deps)
				done := submitAsync(a, "go")
				waitFor(t, func() bool {
					asks, _ := a.SubflowAsks(ctxT(t))
					return len(asks) == 2
				})
				<-started
				decide := func() error {
					if kind == "approve" {
						return a.Approve(context.Background(), "w1", conductor.Decision{Approved: true})
					}
					return a.Answer(ctxT(t), "q1", "Oslo")
				}
				if err := decide(); err != nil {
					t.Fatal(err)
				}
				waitFor(t, func() bool {
					asks, _ := a.SubflowAsks(ctxT(t))
					return len(asks) == 1
				})
				err := decide()
				if !errors.Is(err, conductor.ErrRejected) {
					t.Fatalf("second decision: %v, want ErrRejected", err)
				}
				if !strings.Contains(err.Error(), "not awaiting") || strings.Contains(err.Error(), "no pending call") {
					t.Errorf("second decision: %v, want it to say the call no longer waits", err)
				}
				_ = a.Abort(context.Background(), contract.AbortNow)
				<-done
			})
		}
	}
}
