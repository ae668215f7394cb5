package ledger

import (
	"slices"
	"strings"
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
	missed  lag
	closing bool // deliver what is queued, then end
	stopped bool // end now
	wake    chan struct{}
	// pushed counts push calls; taken is pushed as of the last take, and
	// handled is taken once that batch was delivered: every event pushed
	// up to handled has reached the subscriber (merged, or counted in a
	// lag notice). flushed is closed and replaced when handled moves.
	pushed, taken, handled uint64
	flushed                chan struct{}
}

// item is a queued event and the events dropped just before it. Deltas
// merged into it collect in text, so that merging many stays linear.
type item struct {
	ev     contract.RunEvent
	missed lag
	text   *strings.Builder
}

// lag counts dropped events and names the newest of them, whose Seq
// bounds what a repair from the store brings.
type lag struct {
	n            int
	seq          uint64
	session, run string
	at           contract.Timestamp
}

// add counts ev as dropped.
func (l *lag) add(ev *contract.RunEvent) {
	l.n++
	l.seq, l.session, l.run, l.at = ev.Seq, ev.SessionID, ev.RunID, ev.At
}

func newSubscriber(limit int) *subscriber {
	return &subscriber{limit: limit, wake: make(chan struct{}, 1), flushed: make(chan struct{})}
}

// push queues ev. A full queue loses no text: a delta continuing the
// newest queued delta of the same part is merged into it, and deltas,
// the events that end a turn or a run, and a delegated run's events
// (which no repair from the store brings back) are queued past the
// limit. Only the root run's other events are dropped, and counted for
// the lag notice. So a stalled subscriber holds at most the limit plus
// one item per streamed part, per attempt and per turn, however long the
// text, plus the committed events of the delegated runs.
func (s *subscriber) push(ev *contract.RunEvent) {
	s.mu.Lock()
	s.pushed++
	switch {
	case s.stopped || s.closing:
	case len(s.queue) < s.limit:
		s.queue = append(s.queue, item{ev: *ev, missed: s.missed})
		s.missed = lag{}
	case s.missed.n == 0 && continues(&s.queue[len(s.queue)-1].ev, ev):
		s.queue[len(s.queue)-1].merge(ev)
	case isDelta(ev.Kind) || ends(ev.Kind) || len(ev.Subflow) > 0:
		s.queue = append(s.queue, item{ev: *ev, missed: s.missed})
		s.missed = lag{}
	default:
		s.missed.add(ev)
	}
	s.mu.Unlock()
	s.signal()
}

func isDelta(k contract.EventKind) bool {
	return k == contract.EvTextDelta || k == contract.EvThinkingDelta || k == contract.EvToolCallDelta
}

// ends reports whether k ends a turn, a run or a model call's attempt
// (a retry notice, which tells the subscriber to drop the attempt's
// deltas before the next attempt's), or asks the host for something it
// must answer: events a subscriber is never left without.
func ends(k contract.EventKind) bool {
	switch k {
	case contract.EvTurnCompleted, contract.EvRunSettled, contract.EvRunFaulted, contract.EvRunDetached, contract.EvApprovalRequested, contract.EvQuestionAsked, contract.EvModelRetry:
		return true
	}
	return false
}

// continues reports whether next is the delta right after prev in the
// same part of the same model call.
func continues(prev, next *contract.RunEvent) bool {
	return isDelta(next.Kind) && next.Kind == prev.Kind && next.Seq == prev.Seq &&
		next.Index == prev.Index && next.RunID == prev.RunID && next.SessionID == prev.SessionID &&
		slices.Equal(next.Subflow, prev.Subflow)
}

// merge appends a continuing delta: the merged event carries the newest
// Delta number and time, so it stands for every delta up to it.
func (it *item) merge(next *contract.RunEvent) {
	if it.text == nil {
		it.text = &strings.Builder{}
		it.text.WriteString(it.ev.Text)
	}
	it.text.WriteString(next.Text)
	it.ev.Delta, it.ev.At = next.Delta, next.At
	if it.ev.Call == nil {
		it.ev.Call = next.Call
	}
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
	close(s.flushed)
	s.flushed = make(chan struct{})
	s.mu.Unlock()
	s.signal()
}

// delivered records that the batch last taken has reached the subscriber.
func (s *subscriber) delivered() {
	s.mu.Lock()
	s.handled = s.taken
	close(s.flushed)
	s.flushed = make(chan struct{})
	s.mu.Unlock()
}

// pushes returns how many events were pushed so far.
func (s *subscriber) pushes() uint64 {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.pushed
}

// reached reports whether every event up to the n-th push has reached
// the subscriber, or it has ended; otherwise it returns what closes when
// that may have changed.
func (s *subscriber) reached(n uint64) (bool, <-chan struct{}) {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.stopped || s.handled >= n, s.flushed
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
		if len(s.queue) > 0 || s.closing || s.missed.n > 0 {
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
	s.taken = s.pushed
	q := s.queue
	s.queue = s.spare[:0]
	clear(s.out)
	out := s.out[:0]
	for _, it := range q {
		if it.missed.n > 0 {
			out = append(out, it.missed.event())
		}
		if it.text != nil {
			it.ev.Text = it.text.String()
		}
		out = append(out, it.ev)
	}
	if s.missed.n > 0 {
		// Events are dropped only while the queue is full, so every drop
		// came after everything queued: the notice goes last, at once,
		// rather than waiting for an event that may never come.
		out = append(out, s.missed.event())
		s.missed = lag{}
	}
	clear(q)
	s.spare = q
	s.out = out
	return out
}

// event is the lag notice: how many events were missed, and the session,
// run, Seq and time of the newest. Only the root run's events are
// dropped, so it has no subflow path, and the committed events it counts
// are those its subscriber lacks up to its Seq, which the store has.
func (l lag) event() contract.RunEvent {
	return contract.RunEvent{Seq: l.seq, SessionID: l.session, RunID: l.run, At: l.at, Kind: contract.EvLag, Missed: l.n}
}
