package wire

import (
	"context"
	"math"
	"slices"
	"sync"
	"time"

	"github.com/batonrt/baton/contract"
)

// eventLog is a thread's events, deltas included, from the start of its
// previous run on: what every stream of the thread reads, at its own pace.
// One subscription fills it, so a thread with a thousand readers has one
// subscriber, a reader never misses a delta however slow it is, a reader
// joining mid-turn starts from the run's start, and a reconnect resumes
// exactly after the event it names, delta or not.
type eventLog struct {
	r Runner

	mu     sync.Mutex
	events []contract.RunEvent
	start  int // absolute position of events[0]
	// runs are the absolute positions of the retained run_started events.
	runs    []int
	lastSeq uint64
	// streamed is the Seq of the newest model call whose deltas the log
	// keeps, and cut that of one whose first deltas it missed: the
	// thread's runner picked its run up, and the call streamed, before
	// the log subscribed (a thread opened on a stored run in flight).
	// The cut call's deltas are left out, so that no reader gets its
	// text without its start; its turn's completion carries it whole.
	streamed, cut uint64
	changed       chan struct{}
	closed        bool
}

func newEventLog(r Runner) *eventLog {
	return &eventLog{r: r, changed: make(chan struct{})}
}

// add is the thread's subscriber. A lag notice (the subscription lost
// some of the run's own events, never text nor a delegate's) is repaired
// from the store where it stands, with the events it counts: those up to
// its Seq. Later ones are not taken yet: a delegate's events still queued
// behind the notice came before them.
func (l *eventLog) add(ev contract.RunEvent) {
	switch {
	case ev.Kind == contract.EvSignalRejected:
	case ev.Kind == contract.EvLag:
		upTo := ev.Seq
		if upTo == 0 {
			// A notice that names no event (a Runner of another hub).
			upTo = math.MaxUint64
		}
		l.repair(upTo)
	default:
		l.mu.Lock()
		l.appendLocked(ev)
		l.mu.Unlock()
	}
}

func (l *eventLog) repair(upTo uint64) {
	ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
	defer cancel()
	l.mu.Lock()
	after := l.lastSeq
	l.mu.Unlock()
	events, err := l.r.EventsSince(ctx, after)
	if err != nil {
		return
	}
	l.mu.Lock()
	defer l.mu.Unlock()
	for _, ev := range events {
		if ev.Seq > upTo {
			break
		}
		l.appendLocked(ev)
	}
}

func (l *eventLog) appendLocked(ev contract.RunEvent) {
	if l.closed {
		return
	}
	switch {
	case len(ev.Subflow) > 0:
		// A delegate's events are numbered by its own session.
	case ev.Delta > 0:
		// Streamed by the model call after the newest committed event.
		if ev.Seq < l.lastSeq {
			return // its turn already completed, repaired from the store
		}
		if !l.streamsLocked(ev) {
			return
		}
	case ev.Seq <= l.lastSeq:
		return
	default:
		l.lastSeq = ev.Seq
		if ev.Kind == contract.EvRunStarted {
			l.runs = append(l.runs, l.start+len(l.events))
			l.trim()
		}
	}
	l.events = append(l.events, ev)
	close(l.changed)
	l.changed = make(chan struct{})
}

// streamsLocked reports whether the log keeps the delta ev: one of a
// model call whose first delta it had.
func (l *eventLog) streamsLocked(ev contract.RunEvent) bool {
	switch {
	case ev.Seq == l.streamed:
		return true
	case ev.Seq == l.cut:
		return false
	case ev.Delta > 1:
		l.cut = ev.Seq
		return false
	}
	l.streamed = ev.Seq
	return true
}

// trim keeps the newest two runs: the one starting and the one before,
// whose slow readers may still be writing its end.
func (l *eventLog) trim() {
	if len(l.runs) <= 2 {
		return
	}
	cut := l.runs[len(l.runs)-2]
	l.events = slices.Clone(l.events[cut-l.start:])
	l.start = cut
	l.runs = slices.Clone(l.runs[len(l.runs)-2:])
}

// read returns the events from absolute position pos on, the position
// after them, and a channel closed when more come. lost reports that pos
// was trimmed away; closed that no more will ever come.
func (l *eventLog) read(pos int) (events []contract.RunEvent, next int, more <-chan struct{}, lost, closed bool) {
	l.mu.Lock()
	defer l.mu.Unlock()
	if pos < l.start {
		return nil, pos, l.changed, true, l.closed
	}
	end := l.start + len(l.events)
	return l.events[pos-l.start:], end, l.changed, false, l.closed
}

// snapshot returns the retained events and the absolute position after
// them.
func (l *eventLog) snapshot() ([]contract.RunEvent, int) {
	l.mu.Lock()
	defer l.mu.Unlock()
	return l.events, l.start + len(l.events)
}

// end is the absolute position after the newest event.
func (l *eventLog) end() int {
	l.mu.Lock()
	defer l.mu.Unlock()
	return l.start + len(l.events)
}

// close wakes every reader for the last time.
func (l *eventLog) close() {
	l.mu.Lock()
	defer l.mu.Unlock()
	if !l.closed {
		l.closed = true
		close(l.changed)
	}
}

// start0 is the absolute position of the oldest retained event.
func (l *eventLog) start0() int {
	l.mu.Lock()
	defer l.mu.Unlock()
	return l.start
}
