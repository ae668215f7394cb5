package conductor_test

import (
	"context"
	"errors"
	"sync"
	"testing"
	"time"

	"github.com/batonrt/baton/conductor"
	"github.com/batonrt/baton/contract"
)

// TestAbortAfterToolsReachesAChildThatBeginsAfterIt: the parent is
// aborted after its tools while a before_tool hook still holds its
// delegate call, so the child has not begun and the abort cannot reach
// it yet. The hook then lets the call through, and the child begins and
// asks a person, whom nobody answers. The abort must reach the child as
// it reaches one already running, or the parent's run, waiting for its
// call, never ends.
func TestAbortAfterToolsReachesAChildThatBeginsAfterIt(t *testing.T) {
	model := agentsModel{
		"parent": delegateOnce(call{"c1", "delegate_writer", `{"task":"write"}`}),
		"writer": delegateOnce(call{"w1", "echo", `{"text":"ink"}`}),
	}
	deps := testDeps(model, toolBox(t, echoTool(t, dispatchNeedsApproval)))
	deps.People.Approver = conductor.ApproveLater
	entered, release := make(chan struct{}), make(chan struct{})
	var once sync.Once
	deps.Hooks.BeforeTool("policy", 0, func(_ context.Context, c *contract.ToolCall) (conductor.Verdict, error) {
		if c.ID == "c1" {
			once.Do(func() { close(entered) })
			<-release
		}
		return conductor.Verdict{}, nil
	})
	a := newAgent(t, twoDelegates(), deps)
	done := submitAsync(a, "go")
	select {
	case <-entered:
	case <-time.After(10 * time.Second):
		t.Fatal("the hook never saw the delegate call")
	}
	if err := a.Abort(ctxT(t), contract.AbortAfterTools); err != nil {
		t.Fatal(err)
	}
	close(release)
	select {
	case res := <-done:
		if !errors.Is(res.err, contract.ErrAborted) {
			t.Fatalf("submit = %v, want aborted", res.err)
		}
	case <-time.After(10 * time.Second):
		t.Fatal("the abort never reached the child that began after it: the run does not end")
	}
}
