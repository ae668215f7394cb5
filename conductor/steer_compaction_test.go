package conductor_test

import (
	"context"
	"strings"
	"testing"

	"github.com/batonrt/baton/conductor"
	"github.com/batonrt/baton/contract"
	"github.com/batonrt/baton/turn"
)

// overflowsOver is a reply that fails as a model whose context holds
// window tokens fails, when the request carries more, and otherwise
// plays then.
func overflowsOver(window int, then replyFunc) replyFunc {
	return func(ctx context.Context, req contract.ModelRequest) ([]turn.Chunk, error) {
		if req.History.Tokens() > window {
			return nil, &turn.ProviderError{Failure: contract.FailContextOverflow, Status: 400, Message: "context length exceeded"}
		}
		return then(ctx, req)
	}
}

// TestSteerThatBringsHistoryDueCompactsFirst: a long steer delivered at
// an ordinary model-call boundary brings history over the compaction
// threshold, and over the model's window. From revision 13, which
// CreateAgent writes, the run compacts before the call rather than
// sending a request the model must refuse, a billed call wasted before
// compaction came.
func TestSteerThatBringsHistoryDueCompactsFirst(t *testing.T) {
	const window = 400
	cfg := contract.AgentConfig{Compaction: contract.CompactionPolicy{ContextWindow: window, TriggerRatio: 0.5, KeepRecent: 1}}
	release := make(chan struct{})
	then := say("on the new plan")
	m := &summarizingModel{fakeModel: &fakeModel{replies: []replyFunc{
		say("noted"),
		blockUntil(release, say("ok")),
		overflowsOver(window, then),
		overflowsOver(window, then),
	}}}
	a := newAgent(t, cfg, testDeps(m, nil))
	if _, err := a.Submit(ctxT(t), conductor.Text(strings.Repeat("word ", 150))); err != nil {
		t.Fatalf("first submit: %v", err)
	}
	done := submitAsync(a, "go")
	waitPhase(t, a, contract.PhaseAwaitingModel)
	if err := a.Steer(ctxT(t), conductor.Text(strings.Repeat("plan ", 250))); err != nil {
		t.Fatalf("steer: %v", err)
	}
	close(release)
	res := <-done
	if res.err != nil || res.snap.Phase != contract.PhaseSettled {
		t.Fatalf("submit: err %v, phase %s", res.err, res.snap.Phase)
	}
	if m.summaries.Load() != 1 {
		t.Errorf("summaries asked for: %d, want 1", m.summaries.Load())
	}
	for i, req := range m.Requests() {
		if n := req.History.Tokens(); n > window {
			t.Errorf("model call %d (turn %d) carried %d tokens, over the window of %d", i, req.Turn, n, window)
		}
	}
	if got := res.snap.RunUsage.ModelCalls; got != 2 {
		t.Errorf("the run made %d model calls, want 2: its first and the steered one", got)
	}
}
