package conductor_test

import (
	"context"
	"errors"
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/batonrt/baton/conductor"
	"github.com/batonrt/baton/contract"
	"github.com/batonrt/baton/dispatch"
)

// reusedDelegateID is a parent whose model numbers its calls call_0 in
// every reply: it hands the writer a task twice, a turn apart, under the
// one id. The writer answers the first task at once and, on the second,
// calls echo, which waits for approval.
func reusedDelegateID() (contract.AgentConfig, agentsModel) {
	turn := 0
	model := agentsModel{
		"parent": func(_ context.Context, req contract.ModelRequest) replyFunc {
			turn++
			switch turn {
			case 1:
				return callTools(call{"call_0", "delegate_writer", `{"task":"first"}`})
			case 2:
				return callTools(call{"call_0", "delegate_writer", `{"task":"second"}`})
			}
			return say("done")
		},
		"writer": func(_ context.Context, req contract.ModelRequest) replyFunc {
			switch {
			case lastResults(req) != nil:
				return say("wrote")
			case lastUser(req) == "first":
				return say("first done")
			}
			return callTools(call{"w1", "echo", `{"text":"ink"}`})
		},
	}
	return twoDelegates(), model
}

// TestSubflowPathReachesTheChildInFlight: a decision or an answer named
// by a subflow path whose call id an earlier turn's delegate call used
// too goes to the child running now. The run kept both children, and
// the one taken was whichever a map gave first: often the ended one,
// which refused with ErrClosed though the agent was open.
func TestSubflowPathReachesTheChildInFlight(t *testing.T) {
	cfg, model := reusedDelegateID()
	deps := testDeps(model, toolBox(t, echoTool(t, dispatchNeedsApproval)))
	deps.People.Approver = conductor.ApproveLater
	a := newAgent(t, cfg, deps)
	done := submitAsync(a, "go")
	waitFor(t, func() bool {
		asks, err := a.SubflowAsks(ctxT(t))
		return err == nil && len(asks) == 1
	})
	// Each try picks a child anew: a call the child in flight does not
	// know is refused by it, with ErrRejected, every time.
	for i := range 32 {
		err := a.ApproveSubflow(ctxT(t), []string{"call_0"}, "nope", conductor.Decision{Approved: true})
		if !errors.Is(err, conductor.ErrRejected) {
			t.Fatalf("try %d: deciding an unknown call of the child in flight: %v, want ErrRejected", i, err)
		}
		err = a.AnswerSubflow(ctxT(t), []string{"call_0"}, "nope", "x")
		if !errors.Is(err, conductor.ErrRejected) {
			t.Fatalf("try %d: answering an unknown call of the child in flight: %v, want ErrRejected", i, err)
		}
	}
	if err := a.ApproveCalls(ctxT(t), []string{"call_0"}, []conductor.CallDecision{{CallID: "w1", Decision: conductor.Decision{Approved: true}}}); err != nil {
		t.Fatalf("deciding the child's call: %v", err)
	}
	if diff := cmp.Diff([]string{"first done", "wrote"}, settledContents(t, done)); diff != "" {
		t.Errorf("parent results mismatch (-want +got):\n%s", diff)
	}
}

// settledContents waits for the run to settle and returns its tool
// results' contents in history order.
func settledContents(t *testing.T, done <-chan submitted) []string {
	t.Helper()
	res := <-done
	if res.err != nil {
		t.Fatal(res.err)
	}
	var got []string
	for _, r := range results(res.snap) {
		got = append(got, r.Content)
	}
	return got
}

// TestSubflowPathOfAnEndedChildIsNoRun: once a delegate call is answered
// its child's run has ended; a decision for it by path is refused with
// ErrNoRun, as one for the parent's ended run is, not with ErrClosed,
// which says the agent itself was closed.
func TestSubflowPathOfAnEndedChildIsNoRun(t *testing.T) {
	cfg, model := reusedDelegateID()
	model["writer"] = func(_ context.Context, req contract.ModelRequest) replyFunc {
		return say("wrote")
	}
	release := make(chan struct{})
	parent := model["parent"]
	n := 0
	model["parent"] = func(ctx context.Context, req contract.ModelRequest) replyFunc {
		n++
		if n == 2 {
			return blockUntil(release, say("done"))
		}
		return parent(ctx, req)
	}
	a := newAgent(t, cfg, testDeps(model, toolBox(t, echoTool(t))))
	done := submitAsync(a, "go")
	waitFor(t, func() bool { return a.Snapshot().Turns == 2 && a.Snapshot().Phase == contract.PhaseAwaitingModel })
	err := a.ApproveSubflow(ctxT(t), []string{"call_0"}, "w1", conductor.Decision{Approved: true})
	if !errors.Is(err, conductor.ErrNoRun) || errors.Is(err, conductor.ErrClosed) {
		t.Errorf("deciding a call of an ended child: %v, want ErrNoRun", err)
	}
	err = a.AnswerSubflow(ctxT(t), []string{"call_0"}, "w1", "x")
	if !errors.Is(err, conductor.ErrNoRun) || errors.Is(err, conductor.ErrClosed) {
		t.Errorf("answering a call of an ended child: %v, want ErrNoRun", err)
	}
	close(release)
	if res := <-done; res.err != nil {
		t.Fatal(res.err)
	}
}

// TestSubflowPathThroughAnEndedChildIsNoRun: a child ends its run and is
// closed a moment before its parent takes its answer (here held in an
// after-tool hook). A path through it to its own delegate's run names a
// run that ended too: ErrNoRun, as for the child's own, at every depth,
// and not ErrClosed, which says the agent asked was closed.
func TestSubflowPathThroughAnEndedChildIsNoRun(t *testing.T) {
	cfg, model := askerTwoDown()
	deps := testDeps(model, toolBox(t, dispatch.AskHuman("")))
	deps.People.Answerer = func(context.Context, conductor.QuestionRequest) (string, error) {
		return "Bergen", nil
	}
	held, release := make(chan struct{}), make(chan struct{})
	deps.Hooks.AfterTool("hold", 0, func(ctx context.Context, c contract.ToolCall, _ *contract.ToolOutcome) error {
		if c.ID == "c1" {
			close(held)
			<-release
		}
		return nil
	})
	a := newAgent(t, cfg, deps)
	done := submitAsync(a, "go")
	<-held
	for _, path := range [][]string{{"c1"}, {"c1", "m1"}} {
		err := a.ApproveSubflow(ctxT(t), path, "q1", conductor.Decision{Approved: true})
		if !errors.Is(err, conductor.ErrNoRun) || errors.Is(err, conductor.ErrClosed) {
			t.Errorf("deciding a call at %v, whose run ended: %v, want ErrNoRun", path, err)
		}
		err = a.AnswerSubflow(ctxT(t), path, "q1", "Oslo")
		if !errors.Is(err, conductor.ErrNoRun) || errors.Is(err, conductor.ErrClosed) {
			t.Errorf("answering a call at %v, whose run ended: %v, want ErrNoRun", path, err)
		}
	}
	close(release)
	if diff := cmp.Diff([]string{"Bergen"}, settledContents(t, done)); diff != "" {
		t.Errorf("parent results mismatch (-want +got):\n%s", diff)
	}
}
