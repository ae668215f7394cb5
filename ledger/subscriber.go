package ledger

import (
	"sync"

	"github.com/batonrt/baton/contract"
)

// subscriber is one bounded queue. The publisher appends under mu; the
// consumer swaps the whole queue out at once, so the two contend only for
// a slice swap, never for a delivery.
type subscriber struct {
	mu      sync.Mutex
	queue   []item
	spare   []item
	out     []contract.RunEvent // owned by the one consumer
	limit   int
	missed  int
	closing bool // deliver what is queued, then end
	stopped bool // end now
	wake    chan struct{}
}

// item is a queued event and how many events were dropped just before it.
type item struct {
	ev     contract.RunEvent
	missed int
}

func newSubscriber(limit int) *subscriber {
	return &subscriber{limit: limit, wake: make(chan struct{}, 1)}
}

func (s *subscriber) push(ev contract.RunEvent) {
	s.mu.Lock()
	switch {
	case s.stopped || s.closing:
	case len(s.queue) >= s.limit:
		s.missed++
	default:
		s.queue = append(s.queue, item{ev: ev, missed: s.missed})
		s.missed = 0
	}
	s.mu.Unlock()
	s.signal()
}

func (s *subscriber) signal() {
	select {
	case s.wake <- struct{}{}:
	default:
	}
}

func (s *subscriber) close() {
	s.mu.Lock()
	s.closing = true
	s.mu.Unlock()
	s.signal()
}

func (s *subscriber) stop() {
	s.mu.Lock()
	s.stopped = true
	s.queue = nil
	s.mu.Unlock()
	s.signal()
}

func (s *subscriber) isStopped() bool {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.stopped
}

// wait blocks until events are queued, the subscriber ends, or done is
// closed. It returns the events to deliver (lag notices expanded in place)
// and whether more may follow. The slice is reused by the next wait.
func (s *subscriber) wait(done <-chan struct{}) ([]contract.RunEvent, bool) {
	for {
		s.mu.Lock()
		if s.stopped {
			s.mu.Unlock()
			return nil, false
		}
		if len(s.queue) > 0 || s.closing || s.missed > 0 {
			batch := s.take()
			open := !s.closing
			s.mu.Unlock()
			return batch, open
		}
		s.mu.Unlock()
		select {
		case <-s.wake:
		case <-done:
			return nil, false
		}
	}
}

// take empties the queue; mu is held.
func (s *subscriber) take() []contract.RunEvent {
	q := s.queue
	s.queue = s.spare[:0]
	clear(s.out)
	out := s.out[:0]
	for _, it := range q {
		if it.missed > 0 {
			out = append(out, lagEvent(it.ev, it.missed))
		}
		out = append(out, it.ev)
	}
	if s.missed > 0 {
		// Events are dropped only while the queue is full, so every drop
		// came after everything queued: the notice goes last, at once,
		// rather than waiting for an event that may never come.
		last := contract.RunEvent{}
		if len(q) > 0 {
			last = q[len(q)-1].ev
		}
		out = append(out, lagEvent(last, s.missed))
		s.missed = 0
	}
	clear(q)
	s.spare = q
	s.out = out
	return out
}

// lagEvent reports missed events; it is not part of the committed stream,
// so it carries Seq 0 like a rejected signal.
func lagEvent(next contract.RunEvent, missed int) contract.RunEvent {
	return contract.RunEvent{
		SessionID: next.SessionID,
		RunID:     next.RunID,
		Subflow:   next.Subflow,
		At:        next.At,
		Kind:      contract.EvLag,
		Missed:    missed,
	}
}
