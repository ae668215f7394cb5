package ledger_test

import (
	"testing"
	"time"

	"github.com/batonrt/baton/contract"
	"github.com/batonrt/baton/ledger"
)

// A subscriber that falls behind at the end of a stream learns what it
// missed as soon as it catches up, not at the hub's close.
func TestLagIsReportedWhenTheSubscriberCatchesUp(t *testing.T) {
	hub := ledger.NewHub(ledger.Options{Buffer: 2})
	defer hub.Close()
	block, taken := make(chan struct{}), make(chan struct{})
	got := make(chan contract.RunEvent, 16)
	hub.Subscribe(func(ev contract.RunEvent) {
		if ev.Seq == 1 {
			close(taken)
			<-block
		}
		got <- ev
	})
	for seq := uint64(1); seq <= 10; seq++ {
		hub.Publish(&contract.RunEvent{Seq: seq, Kind: contract.EvToolResult})
		if seq == 1 {
			<-taken // the subscriber holds event 1; the queue is empty
		}
	}
	close(block)
	var seqs []uint64
	for {
		select {
		case ev := <-got:
			if ev.Kind == contract.EvLag {
				if ev.Missed != 7 || len(seqs) != 3 {
					t.Fatalf("lag of %d after %v; want 7 after 3 events", ev.Missed, seqs)
				}
				return
			}
			seqs = append(seqs, ev.Seq)
		case <-time.After(5 * time.Second):
			t.Fatalf("no lag notice; got %v", seqs)
		}
	}
}
