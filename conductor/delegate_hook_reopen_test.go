package conductor_test

import (
	"context"
	"strings"
	"testing"
	"time"

	"github.com/batonrt/baton/conductor"
	"github.com/batonrt/baton/contract"
	"github.com/batonrt/baton/dispatch"
	"github.com/batonrt/baton/store"
)

// slowDelegateHook is a before_tool hook that takes a moment over a
// delegate call (a policy service), as any real one does.
func slowDelegateHook(ctx context.Context, c *contract.ToolCall) (conductor.Verdict, error) {
	if strings.HasPrefix(c.Name, "delegate_") {
		select {
		case <-ctx.Done():
			return conductor.Verdict{}, ctx.Err()
		case <-time.After(200 * time.Millisecond):
		}
	}
	return conductor.Verdict{}, nil
}

// TestCloseRightAfterReopenKeepsAChildQuestionOpenWithAHook: as
// TestCloseRightAfterReopenKeepsAChildQuestionOpen, with a before_tool
// hook. The delegate call's child counts as decided (not begun) from the
// moment the hook starts, so Close, right after Reopen, finds a child that
// "never began", takes the run for one that does not wait only for
// people, and aborts the tree the README says Close keeps.
func TestCloseRightAfterReopenKeepsAChildQuestionOpenWithAHook(t *testing.T) {
	st := store.NewMemory()
	cfg, model := closeAsking(t, st, askerTree)
	deps := testDeps(model, toolBox(t, dispatch.AskHuman("")))
	deps.Env.Store = st
	deps.Hooks.BeforeTool("policy", 0, slowDelegateHook)
	a := newAgent(t, cfg, deps)
	if _, err := a.Reopen(ctxT(t), "session_test"); err != nil {
		t.Fatal(err)
	}
	if err := a.Close(); err != nil {
		t.Fatal(err)
	}
	resumeAnswering(t, st, cfg, model)
}

// TestAnswerRightAfterReopenReachesTheChildWithAHook: as
// TestAnswerRightAfterReopenReachesTheChild, with a before_tool hook: the
// answer is refused (no child run) while the hook screens the call.
func TestAnswerRightAfterReopenReachesTheChildWithAHook(t *testing.T) {
	ctx := ctxT(t)
	st := store.NewMemory()
	cfg, model := closeAsking(t, st, askerTree)
	deps := testDeps(model, toolBox(t, dispatch.AskHuman("")))
	deps.Env.Store = st
	deps.Hooks.BeforeTool("policy", 0, slowDelegateHook)
	a := newAgent(t, cfg, deps)
	if _, err := a.Reopen(ctx, "session_test"); err != nil {
		t.Fatal(err)
	}
	if err := a.Answer(ctx, "q1", "Bergen"); err != nil {
		t.Fatalf("answer right after reopen: %v", err)
	}
}
