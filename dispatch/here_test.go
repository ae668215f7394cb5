package dispatch

import (
	"context"
	"encoding/json"
	"testing"
	"time"

	"github.com/batonrt/baton/contract"
	"github.com/google/go-cmp/cmp"
)

// taken collects the calls a Job.Here took, to be run by the test.
type taken chan Taken

func (k taken) take(c Taken) bool { k <- c; return true }

func (k taken) next(t *testing.T) func() (Outcome, bool) {
	t.Helper()
	select {
	case c := <-k:
		return c.Run
	case <-time.After(5 * time.Second):
		t.Fatal("no call was offered to Here")
		return nil
	}
}

func TestHereRunsTheCallAndReturnsItsOutcome(t *testing.T) {
	s := NewScheduler(Options{Limit: 1})
	defer closeScheduler(t, s)
	outs := newOutcomes(2)
	k := make(taken, 2)
	for _, id := range []string{"a", "b"} {
		if err := s.Dispatch(context.Background(), Job{Call: call(id), Tool: toolOf(t, "ok", text("ok "+id)), Done: outs.done, Here: k.take}); err != nil {
			t.Fatal(err)
		}
	}
	run := k.next(t)
	select {
	case <-k:
		t.Fatal("the second call was offered while the first held the only slot")
	default:
	}
	o, ok := run()
	want := Outcome{CallID: "a", Outcome: contract.ToolOutcome{Content: "ok a"}}
	if diff := cmp.Diff(want, o, ignoreDuration); !ok || diff != "" {
		t.Errorf("run() = ok %v, outcome mismatch (-want +got):\n%s", ok, diff)
	}
	// Returning freed the slot: the next call is offered in turn.
	if o, ok := k.next(t)(); !ok || o.CallID != "b" {
		t.Errorf("second run() = %+v, %v; want call b", o, ok)
	}
	select {
	case o := <-outs:
		t.Errorf("Done got %+v, but Here returns the outcome instead", o)
	default:
	}
}

func TestHereDecliningLeavesTheCallToTheScheduler(t *testing.T) {
	s := NewScheduler(Options{})
	defer closeScheduler(t, s)
	outs := newOutcomes(1)
	offered := 0
	decline := func(Taken) bool { offered++; return false }
	if err := s.Dispatch(context.Background(), Job{Call: call("c"), Tool: toolOf(t, "ok", text("ok")), Done: outs.done, Here: decline}); err != nil {
		t.Fatal(err)
	}
	if o := outs.next(t); o.Outcome.Content != "ok" {
		t.Errorf("Done got %+v, want the tool's outcome", o)
	}
	if offered != 1 {
		t.Errorf("Here was offered the call %d times, want 1", offered)
	}
}

// A call taken by Here that times out is answered through Done at its
// deadline, like any other; run then reports that it has no outcome.
func TestHereTimedOutCallIsAnsweredByDone(t *testing.T) {
	s := NewScheduler(Options{DefaultTimeout: time.Millisecond, Grace: time.Millisecond})
	defer closeScheduler(t, s)
	stuck := make(chan struct{})
	deaf := toolOf(t, "deaf", func(context.Context, json.RawMessage) (contract.ToolOutcome, error) {
		<-stuck
		return contract.ToolOutcome{Content: "too late"}, nil
	})
	outs := newOutcomes(1)
	k := make(taken, 1)
	if err := s.Dispatch(context.Background(), Job{Call: call("deaf"), Tool: deaf, Done: outs.done, Here: k.take}); err != nil {
		t.Fatal(err)
	}
	run := k.next(t)
	type result struct {
		o  Outcome
		ok bool
	}
	ran := make(chan result, 1)
	go func() { o, ok := run(); ran <- result{o, ok} }()
	want := Outcome{CallID: "deaf", TimedOut: true, Outcome: contract.ToolOutcome{Content: `tool "deaf" timed out after 1ms`, IsError: true}}
	if diff := cmp.Diff(want, outs.next(t), ignoreDuration); diff != "" {
		t.Errorf("Done mismatch (-want +got):\n%s", diff)
	}
	close(stuck)
	if r := <-ran; r.ok {
		t.Errorf("run() = %+v, true after the call was answered by Done; want false", r.o)
	}
}

// takenCall dispatches one call whose Job's Here takes it, and returns
// its run, where Done's outcome arrives, and whether its tool ran.
func takenCall(t *testing.T, s *Scheduler) (run func() (Outcome, bool), outs outcomes, ran *bool) {
	t.Helper()
	ran = new(bool)
	tool := toolOf(t, "t", func(context.Context, json.RawMessage) (contract.ToolOutcome, error) {
		*ran = true
		return contract.ToolOutcome{}, nil
	})
	outs = newOutcomes(1)
	k := make(taken, 1)
	if err := s.Dispatch(context.Background(), Job{Call: call("c"), Tool: tool, Done: outs.done, Here: k.take}); err != nil {
		t.Fatal(err)
	}
	return k.next(t), outs, ran
}

// A call taken by Here that is cancelled before it runs does not run its
// tool.
func TestHereCancelledBeforeRunRunsNothing(t *testing.T) {
	s := NewScheduler(Options{})
	defer closeScheduler(t, s)
	run, outs, ran := takenCall(t, s)
	s.Cancel("c")
	if o := outs.next(t); !o.Cancelled {
		t.Errorf("Done got %+v, want a cancelled outcome", o)
	}
	if o, ok := run(); ok {
		t.Errorf("run() = %+v, true; want false", o)
	}
	if *ran {
		t.Error("the cancelled call's tool ran")
	}
}

func TestHereIsNotOfferedAnOwnGoroutineTool(t *testing.T) {
	s := NewScheduler(Options{})
	defer closeScheduler(t, s)
	outs := newOutcomes(1)
	offered := false
	take := func(Taken) bool { offered = true; return true }
	tool := toolOf(t, "own", text("ok"), OwnGoroutine())
	if err := s.Dispatch(context.Background(), Job{Call: call("c"), Tool: tool, Done: outs.done, Here: take}); err != nil {
		t.Fatal(err)
	}
	if o := outs.next(t); o.Outcome.Content != "ok" {
		t.Errorf("Done got %+v, want the tool's outcome", o)
	}
	if offered {
		t.Error("Here was offered a call of a tool marked OwnGoroutine")
	}
}

// Cancel ends a taken call's context before it returns: run right after
// it, without waiting for Done, the call does not run its tool.
func TestHereRunRightAfterCancelRunsNothing(t *testing.T) {
	s := NewScheduler(Options{})
	defer closeScheduler(t, s)
	run, outs, ran := takenCall(t, s)
	s.CancelAll()
	// The outcome goes to whichever answers first: run, or Done.
	o, ok := run()
	if !ok {
		o = outs.next(t)
	}
	if !o.Cancelled {
		t.Errorf("the call's outcome = %+v, want cancelled", o)
	}
	if *ran {
		t.Error("the cancelled call's tool ran")
	}
}
