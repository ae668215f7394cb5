package conductor_test

import (
	"errors"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/batonrt/baton/conductor"
	"github.com/batonrt/baton/contract"
	"github.com/batonrt/baton/store"
	"github.com/batonrt/baton/turn"
)

// TestResumeCompactsWhenTheSteerBringsHistoryDue: the process stops
// while a model call is out and a long steer was recorded for the run.
// The call sent again on resume carries the steer, and with it history
// is over the compaction threshold, so the resumed run asks for a summary
// first and sends the call with the steer after it, rather than a request
// over the model's context window.
func TestResumeCompactsWhenTheSteerBringsHistoryDue(t *testing.T) {
	cfg := contract.AgentConfig{Compaction: contract.CompactionPolicy{ContextWindow: 400, TriggerRatio: 0.5, KeepRecent: 1}}
	long := strings.Repeat("word ", 150)
	steer := strings.Repeat("plan ", 100)
	release := make(chan struct{})
	first := &fakeModel{replies: []replyFunc{say("noted"), blockUntil(release, say("lost with the process"))}}
	base := store.NewMemory()
	deps := testDeps(first, nil)
	// Both runs' submits, the first reply and the steer are durable; the
	// second reply is not.
	deps.Env.Store = &crashingStore{Store: base, after: 4}
	a := newAgent(t, cfg, deps)
	if _, err := a.Submit(ctxT(t), conductor.Text(long)); err != nil {
		t.Fatalf("first submit: %v", err)
	}
	done := submitAsync(a, "go")
	waitPhase(t, a, contract.PhaseAwaitingModel)
	if err := a.Steer(ctxT(t), conductor.Text(steer)); err != nil {
		t.Fatalf("steer: %v", err)
	}
	close(release)
	if res := <-done; !errors.Is(res.err, contract.ErrStore) {
		t.Fatalf("submit: err %v, want the store's error", res.err)
	}
	_ = a.Close()

	resumed := &fakeModel{replies: []replyFunc{say("a long text of words"), say("on the new plan")}}
	deps2 := testDeps(resumed, nil)
	deps2.Env.Store = base
	b := newAgent(t, cfg, deps2)
	snap, err := b.Resume(ctxT(t), "session_test")
	if err != nil || snap.Phase != contract.PhaseSettled {
		t.Fatalf("resume: err %v, phase %s", err, snap.Phase)
	}
	reqs := resumed.Requests()
	if len(reqs) != 2 || reqs[0].System != turn.SummarySystem {
		t.Fatalf("resumed model calls: %d, first with system %q; want the summary request, then the call", len(reqs), firstSystem(reqs))
	}
	var marks []contract.TurnMark
	for _, turn := range reqs[1].History.Turns() {
		marks = append(marks, turn.Mark)
	}
	want := []contract.TurnMark{contract.MarkSummary, contract.MarkArchive, contract.MarkNone, contract.MarkSteer}
	if diff := cmp.Diff(want, marks); diff != "" {
		t.Errorf("marks of the call sent again mismatch (-want +got):\n%s", diff)
	}
	if got := reqs[1].Turn; got != 1 {
		t.Errorf("the call sent again is turn %d, want 1: it is the lost one, the run's first", got)
	}
}

func firstSystem(reqs []contract.ModelRequest) string {
	if len(reqs) == 0 {
		return ""
	}
	return reqs[0].System
}
