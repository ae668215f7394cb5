package turn

import (
	"context"
	"errors"
	"fmt"
	"sync"
	"sync/atomic"
	"time"
)

// quietError is the cancel cause of an attempt whose stream went quiet.
type quietError string

func (e quietError) Error() string { return string(e) }

func isQuiet(err error) bool {
	if err == nil {
		return false
	}
	var q quietError
	return errors.As(err, &q)
}

// WentQuiet reports whether ctx, an attempt's, was cancelled because its
// stream went quiet, rather than by the caller: a reply whose end had
// arrived by then is whole (see relay.Run).
func WentQuiet(ctx context.Context) bool { return isQuiet(context.Cause(ctx)) }

// watchdog cancels an attempt when the first chunk or the next one takes
// too long, or the call's total deadline comes. Feeding it is one atomic
// add, so the per-chunk path reads no clock and touches no timer: a timer
// ticks every quarter of the idle timeout and fires once the count has
// stood still for the whole of it (so within idle plus a quarter). The
// same timer is armed for the deadline when that comes sooner, so an
// attempt needs no second timer for it.
type watchdog struct {
	chunks atomic.Uint64

	mu     sync.Mutex // guards the fields below, owned by the timer
	wt     *watchTimer
	done   bool
	seen   uint64
	waited time.Duration // before the first chunk
	quiet  time.Duration // since the count last moved
	next   time.Duration // the wait the timer is armed for
	first  time.Duration
	idle   time.Duration
	// deadline ends the attempt with context.DeadlineExceeded; zero for
	// none.
	deadline time.Time
	cancel   context.CancelCauseFunc
}

// watchTimer is a timer whose callback checks the watchdog that holds
// it. It is kept for the next attempt once stopped before it fired, so
// an attempt usually arms one without making a timer and a callback.
type watchTimer struct {
	t *time.Timer
	w atomic.Pointer[watchdog]
}

func (wt *watchTimer) fire() {
	if w := wt.w.Load(); w != nil {
		w.check()
	}
}

// watchTimers hold timers stopped before they fired: a callback of the
// attempt that held one can no longer run (Stop reported true).
var watchTimers sync.Pool

// start arms the zero watchdog w, which its attempt's context holds, so
// the two are one allocation.
func (w *watchdog) start(first, idle time.Duration, deadline time.Time, cancel context.CancelCauseFunc) {
	w.mu.Lock()
	defer w.mu.Unlock()
	w.first, w.idle, w.deadline, w.cancel = first, idle, deadline, cancel
	if !w.arm(0) {
		return
	}
	// The callback waits for w.mu, held until w.wt is set.
	wt, ok := watchTimers.Get().(*watchTimer)
	if !ok {
		wt = &watchTimer{}
	}
	wt.w.Store(w)
	if wt.t == nil {
		wt.t = time.AfterFunc(w.next, wt.fire)
	} else {
		wt.t.Reset(w.next)
	}
	w.wt = wt
}

func (w *watchdog) fed() { w.chunks.Add(1) }

// arm picks the next wait given n chunks so far; false means none.
func (w *watchdog) arm(n uint64) bool {
	w.next = -1
	if w.idle >= 0 {
		w.next = max(w.idle/4, time.Millisecond)
	}
	if n == 0 && w.first >= 0 {
		left := w.first - w.waited
		if w.next < 0 || left < w.next {
			w.next = left
		}
	}
	if !w.deadline.IsZero() {
		if left := max(time.Until(w.deadline), 0); w.next < 0 || left < w.next {
			w.next = left
		}
	}
	return w.next >= 0
}

func (w *watchdog) check() {
	w.mu.Lock()
	defer w.mu.Unlock()
	if w.done {
		return
	}
	if passed(w.deadline) {
		w.cancel(context.DeadlineExceeded)
		return
	}
	n := w.chunks.Load()
	switch {
	case n == 0:
		w.waited += w.next
		w.quiet += w.next
		if w.first >= 0 && w.waited >= w.first {
			w.cancel(quietError(fmt.Sprintf("no first chunk within %s", w.first)))
			return
		}
	case n != w.seen:
		w.seen, w.quiet = n, 0
	default:
		w.quiet += w.next
	}
	if w.idle >= 0 && w.quiet >= w.idle && (n > 0 || w.first < 0) {
		w.cancel(quietError(fmt.Sprintf("no chunk for %s", w.idle)))
		return
	}
	if w.arm(n) {
		w.wt.t.Reset(w.next)
	}
}

func (w *watchdog) stop() {
	w.mu.Lock()
	defer w.mu.Unlock()
	w.done = true
	if w.wt == nil {
		return
	}
	// A timer that fired, or is firing, is not kept: its callback may
	// still be on its way to this watchdog.
	if w.wt.t.Stop() {
		w.wt.w.Store(nil)
		watchTimers.Put(w.wt)
	}
	w.wt = nil
}
