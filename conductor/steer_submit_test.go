package conductor_test

import (
	"context"
	"errors"
	"testing"
	"time"

	"github.com/batonrt/baton/conductor"
	"github.com/batonrt/baton/contract"
	"github.com/batonrt/baton/dispatch"
)

// A Submit while a run is in flight is folded into it as steering.

// TestSubmitSteeringThatEndsTheRunReturns: a Submit folded in as steering
// whose step ends the run at once (here the skipped approval closes the
// batch and the turn cap faults the run) must still return that run's end.
func TestSubmitSteeringThatEndsTheRunReturns(t *testing.T) {
	risky := gateTool(t, "risky", make(chan string, 1), nil, dispatch.NeedsApproval())
	m := &fakeModel{replies: []replyFunc{callTools(call{"c1", "risky", `{}`})}}
	deps := testDeps(m, toolBox(t, risky))
	deps.People.Approver = conductor.ApproveLater
	a := newAgent(t, contract.AgentConfig{MaxTurns: 1}, deps)
	first := submitAsync(a, "go")
	waitPhase(t, a, contract.PhaseAwaitingApproval)
	ctx, cancel := context.WithTimeout(context.Background(), 5*time.Second)
	defer cancel()
	snap, err := a.Submit(ctx, conductor.Text("never mind"))
	if !errors.Is(err, contract.ErrMaxTurns) || snap.Phase != contract.PhaseFaulted {
		t.Fatalf("steering submit: phase %s err %v", snap.Phase, err)
	}
	if res := <-first; !errors.Is(res.err, contract.ErrMaxTurns) || res.snap.RunID != snap.RunID {
		t.Fatalf("first submit: run %s err %v", res.snap.RunID, res.err)
	}
}

// TestRetrievedContextDoesNotBreakASteeringSubmit: retrieved turns are
// user context whatever role the retriever left on them, on a new run
// and on a Submit folded in as steering alike.
func TestRetrievedContextDoesNotBreakASteeringSubmit(t *testing.T) {
	release := make(chan struct{})
	m := &fakeModel{replies: []replyFunc{blockUntil(release, say("first")), say("second")}}
	deps := testDeps(m, nil)
	deps.Retrieval.Retriever = func(context.Context, []contract.Turn) ([]contract.Turn, error) {
		return []contract.Turn{{Blocks: []contract.Block{contract.TextBlock("retrieved fact")}}}, nil
	}
	a := newAgent(t, contract.AgentConfig{}, deps)
	first := submitAsync(a, "one")
	waitPhase(t, a, contract.PhaseAwaitingModel)
	second := submitAsync(a, "two")
	for a.Snapshot().Queued == nil {
		select {
		case res := <-second:
			t.Fatalf("steering submit refused: %v", res.err)
		case <-time.After(time.Millisecond):
		}
	}
	close(release)
	s1, s2 := <-first, <-second
	if s1.err != nil || s2.err != nil || s1.snap.RunID != s2.snap.RunID {
		t.Fatalf("first %s %v, second %s %v", s1.snap.RunID, s1.err, s2.snap.RunID, s2.err)
	}
	if n := len(m.Requests()); n != 2 {
		t.Fatalf("%d model calls, want 2", n)
	}
}
