package ledger

import (
	"context"
	"fmt"
	"io"
	"iter"
	"log/slog"
	"sync"
	"sync/atomic"

	"github.com/batonrt/baton/contract"
)

// DefaultBuffer is the per-subscriber queue length when Options.Buffer is
// zero.
const DefaultBuffer = 1024

// Options configure a Hub.
type Options struct {
	// Buffer is how many undelivered events one subscriber may hold before
	// the hub merges its deltas and drops the events it may lose (and
	// later tells it with EvLag).
	Buffer int
	// Logger receives panics of subscribers; nil discards.
	Logger *slog.Logger
}

// Hub fans events out to subscribers. Publish never blocks on a
// subscriber: each one has a bounded queue and its own goroutine (or, for
// Events, the caller's loop).
type Hub struct {
	buffer int
	log    *slog.Logger

	mu     sync.RWMutex
	subs   map[*subscriber]struct{}
	closed bool
	wg     sync.WaitGroup
	// listening is len(subs), kept under mu, so that Publish with no
	// subscriber, a run's usual case, costs one atomic load.
	listening atomic.Int32
}

// NewHub returns an open hub.
func NewHub(opts Options) *Hub {
	if opts.Buffer <= 0 {
		opts.Buffer = DefaultBuffer
	}
	if opts.Logger == nil {
		opts.Logger = slog.New(slog.NewTextHandler(io.Discard, nil))
	}
	return &Hub{buffer: opts.Buffer, log: opts.Logger, subs: map[*subscriber]struct{}{}}
}

// Publish queues ev for every subscriber. A subscriber whose queue is full
// gets a delta merged into the one before it, and an event ending a turn
// or a run, or any event of a delegated run (ev.Subflow set), queued
// anyway; it misses any other event, and learns the count, and the Seq of
// the newest missed, from an EvLag event delivered where they were.
// Publishing to a closed hub does nothing. ev is copied; it is passed by
// pointer because a publisher streaming a model's reply has this call
// under every delta, deep in its stack.
func (h *Hub) Publish(ev *contract.RunEvent) {
	// A subscriber added before this call began is counted: add counts
	// it before Subscribe or Events returns.
	if h.listening.Load() == 0 {
		return
	}
	h.mu.RLock()
	defer h.mu.RUnlock()
	if h.closed {
		return
	}
	for s := range h.subs {
		s.push(ev)
	}
}

// HasSubscribers reports whether anyone is subscribed now: a publisher
// may skip building events no one would receive. A subscriber added
// after the answer misses nothing it was promised, since it gets only
// events published after it was added.
func (h *Hub) HasSubscribers() bool { return h.listening.Load() > 0 }

// Subscribe calls fn with every event published from now on, in order, on
// a goroutine of the subscriber's own. A panic in fn is recovered and
// logged, and the subscriber is removed. unsubscribe stops delivery; it
// may be called more than once and from inside fn.
func (h *Hub) Subscribe(fn func(contract.RunEvent)) (unsubscribe func()) {
	s := h.add(true)
	if s == nil {
		return func() {}
	}
	go h.deliver(s, fn)
	return func() { h.remove(s) }
}

// Events yields every event published from now on, in order, with the same
// queueing and lag rules as Subscribe. It ends when ctx is done, the hub
// closes (after what was queued), or the loop breaks.
func (h *Hub) Events(ctx context.Context) iter.Seq[contract.RunEvent] {
	return func(yield func(contract.RunEvent) bool) {
		s := h.add(false)
		if s == nil {
			return
		}
		defer h.remove(s)
		for {
			batch, open := s.wait(ctx.Done())
			for _, ev := range batch {
				if ctx.Err() != nil || !yield(ev) {
					return
				}
			}
			s.delivered()
			if !open {
				return
			}
		}
	}
}

// Close delivers what each subscriber already has queued, stops every
// subscriber goroutine and waits for them. A subscriber fn that never
// returns keeps Close waiting, and so Close must not be called from a
// subscriber fn.
func (h *Hub) Close() {
	h.mu.Lock()
	if !h.closed {
		h.closed = true
		for s := range h.subs {
			s.close()
		}
		clear(h.subs)
		h.listening.Store(0)
	}
	h.mu.Unlock()
	h.wg.Wait()
}

// Flush waits until every event published before it was called has
// reached every subscriber attached then: its fn has returned for it (or
// for the delta it was merged into, or the lag notice counting it), or the
// subscriber has ended. It returns ctx's error if ctx ends first. Publish
// never waits for a subscriber; Flush is how a host that must see an
// event before going on, such as the end of a run, waits for it.
func (h *Hub) Flush(ctx context.Context) error {
	type target struct {
		s *subscriber
		n uint64
	}
	h.mu.RLock()
	targets := make([]target, 0, len(h.subs))
	for s := range h.subs {
		targets = append(targets, target{s, s.pushes()})
	}
	h.mu.RUnlock()
	for _, t := range targets {
		for {
			ok, changed := t.s.reached(t.n)
			if ok {
				break
			}
			select {
			case <-changed:
			case <-ctx.Done():
				return fmt.Errorf("ledger: flush: %w", ctx.Err())
			}
		}
	}
	return nil
}

// Len reports how many subscribers are attached.
func (h *Hub) Len() int {
	h.mu.RLock()
	defer h.mu.RUnlock()
	return len(h.subs)
}

// add adds a subscriber, unless the hub is closed; with goroutine it
// also counts the goroutine about to deliver to it, under the same lock
// as Close, so a Close that begins after add returns waits for it.
func (h *Hub) add(goroutine bool) *subscriber {
	h.mu.Lock()
	defer h.mu.Unlock()
	if h.closed {
		return nil
	}
	if goroutine {
		h.wg.Add(1)
	}
	s := newSubscriber(h.buffer)
	h.subs[s] = struct{}{}
	h.listening.Store(int32(len(h.subs)))
	return s
}

func (h *Hub) remove(s *subscriber) {
	h.mu.Lock()
	delete(h.subs, s)
	h.listening.Store(int32(len(h.subs)))
	h.mu.Unlock()
	s.stop()
}

func (h *Hub) deliver(s *subscriber, fn func(contract.RunEvent)) {
	defer h.wg.Done()
	for {
		batch, open := s.wait(nil)
		for _, ev := range batch {
			// An unsubscribe, from fn or elsewhere, ends delivery before
			// the rest of the batch already taken.
			if s.isStopped() || !h.call(s, fn, ev) {
				return
			}
		}
		s.delivered()
		if !open {
			return
		}
	}
}

// call runs fn and reports whether the subscriber survived it.
func (h *Hub) call(s *subscriber, fn func(contract.RunEvent), ev contract.RunEvent) (ok bool) {
	defer func() {
		if r := recover(); r != nil {
			h.log.Error("ledger: subscriber panicked; removed", "panic", r, "seq", ev.Seq, "kind", ev.Kind)
			h.remove(s)
			ok = false
		}
	}()
	fn(ev)
	return true
}
