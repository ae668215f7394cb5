package ledger_test

import (
	"testing"
	"time"

	"github.com/batonrt/baton/contract"
	"github.com/batonrt/baton/ledger"
)

// A retry notice published while a subscriber lags is never dropped: it
// is what tells the subscriber that the deltas before it belong to an
// attempt that broke, and without it the retried reply's text reads as
// the continuation of the broken one.
func TestLaggingSubscriberKeepsRetryNotice(t *testing.T) {
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
	hub.Publish(&contract.RunEvent{Seq: 1, Delta: 3, Kind: contract.EvModelRetry, Text: "stream broken"})
	hub.Publish(delta(4, "Hello"))
	hub.Publish(&contract.RunEvent{Seq: 2, Kind: contract.EvRunSettled})
	close(block)
	var kinds []contract.EventKind
	for {
		select {
		case ev := <-got:
			kinds = append(kinds, ev.Kind)
			if ev.Kind != contract.EvRunSettled {
				continue
			}
			for _, k := range kinds {
				if k == contract.EvModelRetry {
					return
				}
			}
			t.Fatalf("the retry notice was dropped: got %v", kinds)
		case <-time.After(5 * time.Second):
			t.Fatalf("run_settled never came; got %v", kinds)
		}
	}
}
