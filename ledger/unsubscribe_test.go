package ledger

import (
	"testing"

	"github.com/batonrt/baton/contract"
	"github.com/google/go-cmp/cmp"
)

// Events already taken into the subscriber's batch must not reach fn once
// it has unsubscribed: unsubscribe stops delivery, even from inside fn.
func TestHubUnsubscribeStopsTheRestOfTheBatch(t *testing.T) {
	h := NewHub(Options{})
	defer h.Close()
	var c collector
	var unsub func()
	ready := make(chan struct{})
	unsub = h.Subscribe(func(e contract.RunEvent) {
		<-ready
		c.fn(e)
		unsub()
	})
	for i := uint64(1); i <= 5; i++ {
		h.Publish(new(ev(i)))
	}
	close(ready)
	h.Close()
	got := c.seqs()
	// The goroutine may take event 1 alone or all five at once; either
	// way only event 1 may be delivered.
	if diff := cmp.Diff([]uint64{1}, got); diff != "" {
		t.Errorf("mismatch (-want +got):\n%s", diff)
	}
}
