package ledger

import (
	"bytes"
	"context"
	"log/slog"
	"runtime"
	"slices"
	"strings"
	"sync"
	"testing"

	"github.com/batonrt/baton/contract"
	"github.com/google/go-cmp/cmp"
	"pgregory.net/rapid"
)

func ev(seq uint64) contract.RunEvent {
	return contract.RunEvent{Seq: seq, SessionID: "s", RunID: "r", Kind: contract.EvToolCall}
}

// collector records what a subscriber fn received.
type collector struct {
	mu  sync.Mutex
	got []contract.RunEvent
}

func (c *collector) fn(e contract.RunEvent) {
	c.mu.Lock()
	c.got = append(c.got, e)
	c.mu.Unlock()
}

func (c *collector) seqs() []uint64 {
	c.mu.Lock()
	defer c.mu.Unlock()
	var out []uint64
	for _, e := range c.got {
		if e.Kind == contract.EvLag {
			out = append(out, 1000+uint64(e.Missed))
			continue
		}
		out = append(out, e.Seq)
	}
	return out
}

func TestHubDeliversInOrderToEverySubscriber(t *testing.T) {
	h := NewHub(Options{})
	var a, b collector
	h.Subscribe(a.fn)
	h.Subscribe(b.fn)
	var want []uint64
	for i := uint64(1); i <= 200; i++ {
		h.Publish(new(ev(i)))
		want = append(want, i)
	}
	h.Close()
	for name, c := range map[string]*collector{"a": &a, "b": &b} {
		if diff := cmp.Diff(want, c.seqs()); diff != "" {
			t.Errorf("%s: mismatch (-want +got):\n%s", name, diff)
		}
	}
}

func TestHubSlowSubscriberGetsLagBeforeNextEvent(t *testing.T) {
	s := newSubscriber(3)
	for i := uint64(1); i <= 5; i++ {
		s.push(new(ev(i)))
	}
	first := slices.Clone(s.take())
	s.push(new(ev(6)))
	second := s.take()
	got := append(first, second...)
	want := []contract.RunEvent{ev(1), ev(2), ev(3), {Seq: 5, SessionID: "s", RunID: "r", Kind: contract.EvLag, Missed: 2}, ev(6)}
	if diff := cmp.Diff(want, got); diff != "" {
		t.Errorf("mismatch (-want +got):\n%s", diff)
	}
}

func TestHubSlowSubscriberDoesNotStallOthers(t *testing.T) {
	h := NewHub(Options{Buffer: 4})
	gate := make(chan struct{})
	started := make(chan struct{})
	var slow, fast collector
	var once sync.Once
	h.Subscribe(func(e contract.RunEvent) {
		once.Do(func() { close(started); <-gate })
		slow.fn(e)
	})
	h.Subscribe(fast.fn)
	h.Publish(new(ev(1)))
	<-started
	for i := uint64(2); i <= 10; i++ {
		h.Publish(new(ev(i))) // 2..5 queue, 6..10 are dropped for the slow one
	}
	close(gate)
	h.Close()
	if diff := cmp.Diff([]uint64{1, 2, 3, 4, 5, 1005}, slow.seqs()); diff != "" {
		t.Errorf("slow: mismatch (-want +got):\n%s", diff)
	}
	total := 0
	for _, e := range fast.got {
		if e.Kind == contract.EvLag {
			total += e.Missed
		} else {
			total++
		}
	}
	if total != 10 {
		t.Errorf("fast subscriber got or was told of %d events, want 10", total)
	}
}

func TestHubIsolatesPanickingSubscriber(t *testing.T) {
	var logs bytes.Buffer
	h := NewHub(Options{Logger: slog.New(slog.NewTextHandler(&logs, nil))})
	var good collector
	h.Subscribe(func(e contract.RunEvent) {
		if e.Seq == 2 {
			panic("boom")
		}
	})
	h.Subscribe(good.fn)
	for i := uint64(1); i <= 5; i++ {
		h.Publish(new(ev(i)))
	}
	h.Close()
	if diff := cmp.Diff([]uint64{1, 2, 3, 4, 5}, good.seqs()); diff != "" {
		t.Errorf("mismatch (-want +got):\n%s", diff)
	}
	if !strings.Contains(logs.String(), "subscriber panicked") || !strings.Contains(logs.String(), "boom") {
		t.Errorf("panic not logged: %q", logs.String())
	}
	if h.Len() != 0 {
		t.Errorf("Len after Close = %d, want 0", h.Len())
	}
}

func TestHubPanicRemovesSubscriber(t *testing.T) {
	h := NewHub(Options{})
	defer h.Close()
	done := make(chan struct{})
	h.Subscribe(func(contract.RunEvent) { defer close(done); panic("x") })
	h.Publish(new(ev(1)))
	<-done
	for h.Len() != 0 {
		// remove runs right after the recovered panic; yield until it has.
		runtime.Gosched()
	}
}

func TestHubUnsubscribeFromInsideFn(t *testing.T) {
	h := NewHub(Options{})
	var c collector
	var unsub func()
	ready := make(chan struct{})
	unsub = h.Subscribe(func(e contract.RunEvent) {
		<-ready
		c.fn(e)
		if e.Seq == 2 {
			unsub()
		}
	})
	close(ready)
	for i := uint64(1); i <= 2; i++ {
		h.Publish(new(ev(i)))
	}
	h.Close()
	h.Publish(new(ev(3)))
	unsub()
	if got := c.seqs(); len(got) > 2 || len(got) == 0 || got[len(got)-1] > 2 {
		t.Errorf("got %v, want at most events 1 and 2", got)
	}
}

func TestHubEventsPull(t *testing.T) {
	h := NewHub(Options{})
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	got := make(chan []uint64)
	subscribed := make(chan struct{})
	go func() {
		var seqs []uint64
		first := true
		for e := range h.Events(ctx) {
			if first {
				first = false
			}
			seqs = append(seqs, e.Seq)
			if e.Seq == 3 {
				break
			}
		}
		got <- seqs
	}()
	go func() {
		for h.Len() == 0 {
			runtime.Gosched()
		}
		close(subscribed)
	}()
	<-subscribed
	for i := uint64(1); i <= 5; i++ {
		h.Publish(new(ev(i)))
	}
	if diff := cmp.Diff([]uint64{1, 2, 3}, <-got); diff != "" {
		t.Errorf("mismatch (-want +got):\n%s", diff)
	}
	h.Close()
}

func TestHubEventsEndsOnCancelAndClose(t *testing.T) {
	h := NewHub(Options{})
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	for range h.Events(ctx) {
		t.Fatal("no event expected after cancel")
	}
	h.Close()
	for range h.Events(context.Background()) {
		t.Fatal("no event expected from a closed hub")
	}
	if unsub := h.Subscribe(func(contract.RunEvent) {}); unsub == nil {
		t.Fatal("Subscribe on a closed hub returned nil")
	}
}

// TestSubscriberProperty: whatever the interleaving of publishes and
// takes, a subscriber sees events in order and each published event is
// either delivered or counted by exactly one lag notice.
func TestSubscriberProperty(t *testing.T) {
	rapid.Check(t, func(t *rapid.T) {
		s := newSubscriber(rapid.IntRange(1, 8).Draw(t, "limit"))
		var seq uint64
		var got []contract.RunEvent
		t.Repeat(map[string]func(*rapid.T){
			"push": func(t *rapid.T) {
				n := rapid.IntRange(1, 10).Draw(t, "n")
				for range n {
					seq++
					s.push(new(ev(seq)))
				}
			},
			"take": func(t *rapid.T) { got = append(got, s.take()...) }, // append copies
			"": func(t *rapid.T) {
				var last uint64
				for _, e := range got {
					if e.Kind != contract.EvLag && e.Seq <= last {
						t.Fatalf("out of order: %d after %d", e.Seq, last)
					}
					if e.Kind != contract.EvLag {
						last = e.Seq
					}
				}
			},
		})
		s.close()
		got = append(got, s.take()...)
		total := 0
		for i, e := range got {
			if e.Kind == contract.EvLag {
				total += e.Missed
				if i+1 < len(got) && got[i+1].Kind == contract.EvLag {
					t.Fatalf("two lag notices in a row")
				}
				continue
			}
			total++
		}
		if uint64(total) != seq {
			t.Fatalf("delivered+missed = %d, published %d", total, seq)
		}
	})
}
