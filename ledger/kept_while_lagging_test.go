package ledger_test

import (
	"testing"
	"time"

	"github.com/batonrt/baton/contract"
	"github.com/batonrt/baton/ledger"
)

// A lagging subscriber is never left without the events that tell it
// how to read what it has, or that it must answer: a retry notice (the
// deltas before it belong to an attempt that broke, and without it the
// retried reply's text reads as their continuation) and a question, a
// delegated run's among them, which no repair from the store brings back.
func TestLaggingSubscriberKeepsRetryNoticesAndQuestions(t *testing.T) {
	for _, kept := range []*contract.RunEvent{
		{Seq: 1, Delta: 3, Kind: contract.EvModelRetry, Text: "stream broken"},
		{Seq: 1, Kind: contract.EvQuestionAsked, Subflow: []string{"call_d"}, Call: &contract.ToolCall{ID: "q1"}},
	} {
		t.Run(string(kept.Kind), func(t *testing.T) { keptWhileLagging(t, kept) })
	}
}

// keptWhileLagging publishes ev to a subscriber whose queue is full and
// checks it arrives.
func keptWhileLagging(t *testing.T, ev *contract.RunEvent) {
	hub := ledger.NewHub(ledger.Options{Buffer: 1})
	defer hub.Close()
	block, taken := make(chan struct{}), make(chan struct{})
	got := make(chan contract.RunEvent, 16)
	first := true
	hub.Subscribe(func(ev contract.RunEvent) {
		if first {
			first = false
			close(taken)
			<-block
		}
		got <- ev
	})
	delta := func(d uint32, text string) *contract.RunEvent {
		return &contract.RunEvent{Seq: 1, Delta: d, Kind: contract.EvTextDelta, Text: text}
	}
	hub.Publish(delta(1, "Good"))
	<-taken
	hub.Publish(delta(2, " morn")) // fills the queue
	hub.Publish(ev)
	hub.Publish(delta(4, "Hello"))
	hub.Publish(&contract.RunEvent{Seq: 2, Kind: contract.EvRunSettled})
	close(block)
	var kinds []contract.EventKind
	for {
		select {
		case e := <-got:
			kinds = append(kinds, e.Kind)
			if e.Kind != contract.EvRunSettled {
				continue
			}
			for _, k := range kinds {
				if k == ev.Kind {
					return
				}
			}
			t.Fatalf("%s was dropped: got %v", ev.Kind, kinds)
		case <-time.After(5 * time.Second):
			t.Fatalf("run_settled never came; got %v", kinds)
		}
	}
}

// A lagging subscriber gets every event of a delegated run, which no
// repair from the store brings back: the store gives a session's own
// events only.
func TestLaggingSubscriberKeepsDelegatedEvents(t *testing.T) {
	for _, kept := range []*contract.RunEvent{
		{Seq: 2, Kind: contract.EvToolCall, Subflow: []string{"call_d"}, Call: &contract.ToolCall{ID: "e1"}},
		{Seq: 3, Kind: contract.EvToolResult, Subflow: []string{"call_d", "call_e"}, Call: &contract.ToolCall{ID: "e1"}},
	} {
		t.Run(string(kept.Kind), func(t *testing.T) { keptWhileLagging(t, kept) })
	}
}
