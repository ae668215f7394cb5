package conductor_test

import (
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/batonrt/baton/conductor"
	"github.com/batonrt/baton/contract"
)

// TestAbortReportsTheQueuedInputItDrops: Steer and FollowUp returned nil,
// so the host told its user the input was taken. An abort that ends the
// run before the input is delivered must say so with an input_dropped
// event for each, before the run's end, rather than drop it silently.
func TestAbortReportsTheQueuedInputItDrops(t *testing.T) {
	release := make(chan struct{})
	m := &fakeModel{replies: []replyFunc{blockUntil(release, say("never seen"))}}
	a := newAgent(t, contract.AgentConfig{}, testDeps(m, nil))
	done := submitAsync(a, "go")
	waitPhase(t, a, contract.PhaseAwaitingModel)
	if err := a.Steer(ctxT(t), conductor.Text("change of plan")); err != nil {
		t.Fatalf("steer: %v", err)
	}
	if err := a.FollowUp(ctxT(t), conductor.Text("and then this")); err != nil {
		t.Fatalf("follow-up: %v", err)
	}
	if err := a.Abort(ctxT(t), contract.AbortNow); err != nil {
		t.Fatalf("abort: %v", err)
	}
	close(release)
	<-done
	events, err := a.EventsSince(ctxT(t), 0)
	if err != nil {
		t.Fatalf("events: %v", err)
	}
	type seen struct {
		Kind  contract.EventKind
		Input contract.InputKind
		Text  string
	}
	var got []seen
	for _, ev := range events {
		if ev.Kind == contract.EvInputDropped || ev.Kind == contract.EvRunFaulted {
			got = append(got, seen{ev.Kind, ev.Input, ev.Text})
		}
	}
	want := []seen{
		{contract.EvInputDropped, contract.InputSteer, "change of plan"},
		{contract.EvInputDropped, contract.InputFollowUp, "and then this"},
		{contract.EvRunFaulted, "", "run aborted: aborted by host"},
	}
	if diff := cmp.Diff(want, got); diff != "" {
		t.Errorf("events at the run's end mismatch (-want +got):\n%s", diff)
	}
}

// TestQueuedInputNamesTheClientsMessages: input a host queued from its
// client's messages carries their ids (Turn.ClientID); the events that
// say where that input went, steering_applied when the model gets it and
// input_dropped when it never will, name those messages, so that a host
// can tell its client which of them were taken and which were lost.
func TestQueuedInputNamesTheClientsMessages(t *testing.T) {
	withID := func(id, text string) contract.Turn {
		turn := contract.UserText(text)
		turn.ClientID = id
		return turn
	}
	release, later := make(chan struct{}), make(chan struct{})
	m := &fakeModel{replies: []replyFunc{blockUntil(release, say("first")), say("second"), blockUntil(later, say("never seen"))}}
	a := newAgent(t, contract.AgentConfig{}, testDeps(m, nil))
	done := submitAsync(a, "go")
	waitPhase(t, a, contract.PhaseAwaitingModel)
	if err := a.Steer(ctxT(t), conductor.Input{Turns: []contract.Turn{withID("m2", "use celsius"), contract.UserText("no id"), withID("m3", "and wind")}}); err != nil {
		t.Fatalf("steer: %v", err)
	}
	close(release)
	<-done
	done = submitAsync(a, "again")
	waitPhase(t, a, contract.PhaseAwaitingModel)
	if err := a.Steer(ctxT(t), conductor.Input{Turns: []contract.Turn{withID("m5", "stop that")}}); err != nil {
		t.Fatalf("steer: %v", err)
	}
	if err := a.FollowUp(ctxT(t), conductor.Text("no id either")); err != nil {
		t.Fatalf("follow-up: %v", err)
	}
	if err := a.Abort(ctxT(t), contract.AbortNow); err != nil {
		t.Fatalf("abort: %v", err)
	}
	close(later)
	<-done
	events, err := a.EventsSince(ctxT(t), 0)
	if err != nil {
		t.Fatalf("events: %v", err)
	}
	type seen struct {
		Kind contract.EventKind
		IDs  []string
	}
	var got []seen
	for _, ev := range events {
		if ev.Kind == contract.EvInputDropped || ev.Kind == contract.EvSteeringApplied {
			got = append(got, seen{ev.Kind, ev.ClientIDs})
		}
	}
	want := []seen{
		{contract.EvSteeringApplied, []string{"m2", "m3"}},
		{contract.EvInputDropped, []string{"m5"}},
		{contract.EvInputDropped, nil},
	}
	if diff := cmp.Diff(want, got); diff != "" {
		t.Errorf("events of the queued input mismatch (-want +got):\n%s", diff)
	}
}
