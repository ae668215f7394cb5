package conductor_test

import (
	"context"
	"errors"
	"testing"

	"github.com/batonrt/baton/conductor"
	"github.com/batonrt/baton/contract"
	"github.com/batonrt/baton/turn"
)

// TestOverflowOnTheLastCallAsksForNoSummary: the run's last allowed model
// call overflows the context. No model call can follow, so the agent must
// not spend a summary call (and rewrite history) for nothing, and the run
// must fault with the overflow (ErrModel), as it does with compaction off,
// not with max_turns.
func TestOverflowOnTheLastCallAsksForNoSummary(t *testing.T) {
	overflow := func(context.Context, contract.ModelRequest) ([]turn.Chunk, error) {
		return nil, &turn.ProviderError{Failure: contract.FailContextOverflow, Status: 400, Message: "context length exceeded"}
	}
	m := &summarizingModel{fakeModel: &fakeModel{replies: []replyFunc{callTools(call{"c1", "big", `{}`}), overflow}}}
	deps := testDeps(m, toolBox(t, bigTool(t)))
	cfg := contract.AgentConfig{Model: "scripted", MaxTurns: 2, Compaction: contract.CompactionPolicy{KeepRecent: 1}}
	a := newAgent(t, cfg, deps)
	snap, err := a.Submit(ctxT(t), conductor.Text("read it"))
	if n := m.summaries.Load(); n != 0 {
		t.Errorf("%d summary calls after the run's last model call", n)
	}
	if !errors.Is(err, contract.ErrModel) || snap.Phase != contract.PhaseFaulted {
		t.Fatalf("err %v phase %s, want the overflow as a model fault", err, snap.Phase)
	}
}
