package ledger

import (
	"context"
	"errors"
	"sync/atomic"
	"testing"
	"time"

	"github.com/batonrt/baton/contract"
)

// TestFlushWaitsForSlowSubscribers: Flush returns only once a slow
// subscriber has seen every event published before it, the end of the run
// included, while a fast one is not held up by it.
func TestFlushWaitsForSlowSubscribers(t *testing.T) {
	h := NewHub(Options{Buffer: 64})
	defer h.Close()
	var slowSaw, fastSaw atomic.Int64
	var sawEnd atomic.Bool
	h.Subscribe(func(ev contract.RunEvent) {
		time.Sleep(time.Millisecond)
		slowSaw.Add(1)
		if ev.Kind == contract.EvRunSettled {
			sawEnd.Store(true)
		}
	})
	h.Subscribe(func(contract.RunEvent) { fastSaw.Add(1) })
	for i := range 20 {
		h.Publish(&contract.RunEvent{Seq: uint64(i + 1), Kind: contract.EvToolCall})
	}
	h.Publish(&contract.RunEvent{Seq: 21, Kind: contract.EvRunSettled})
	if err := h.Flush(context.Background()); err != nil {
		t.Fatal(err)
	}
	if !sawEnd.Load() || fastSaw.Load() != 21 {
		t.Errorf("after Flush: slow saw the end %v (%d events), fast saw %d", sawEnd.Load(), slowSaw.Load(), fastSaw.Load())
	}
}

// TestFlushBoundedByContext: a subscriber that never returns keeps Flush
// waiting only until its context ends.
func TestFlushBoundedByContext(t *testing.T) {
	h := NewHub(Options{})
	release := make(chan struct{})
	h.Subscribe(func(contract.RunEvent) { <-release })
	h.Publish(&contract.RunEvent{Seq: 1, Kind: contract.EvRunStarted})
	ctx, cancel := context.WithTimeout(context.Background(), 20*time.Millisecond)
	defer cancel()
	if err := h.Flush(ctx); !errors.Is(err, context.DeadlineExceeded) {
		t.Errorf("Flush: %v, want the deadline", err)
	}
	close(release)
	h.Close()
	if err := h.Flush(context.Background()); err != nil {
		t.Errorf("Flush after Close: %v", err)
	}
}
