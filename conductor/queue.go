package conductor

import (
	"context"
	"fmt"
	"sync/atomic"

	"github.com/batonrt/baton/contract"
	"github.com/batonrt/baton/turn"
)

// task is one thing the agent does in turn: a closure, or the signal a
// worker brings back for its run.
type task struct {
	// run, when set, is the run the task belongs to: it is dropped once
	// that run is no longer the agent's current one.
	run *runState
	fn  func()
	sig contract.Signal
	// result is a tool call's result when isResult is set. Its time is
	// taken in turn, so results of calls running at once are stamped in
	// the order they are applied, whatever the clock.
	result   contract.ToolSettled
	isResult bool
	// response is what the provider said of the reply sig is, for its
	// turn_completed event.
	response turn.Response
}

// none reports whether t is no task at all: a job that brought nothing.
func (t *task) none() bool { return t.fn == nil && t.sig == nil && !t.isResult }

// enqueue does t after the tasks handed in before it, one at a time. The
// agent has no goroutine of its own: whichever goroutine hands in a task
// while none is being done does it, and every task queued meanwhile,
// before returning. So a worker whose model call ends applies its reply
// itself, with no hand-off to another goroutine, and an idle agent costs
// no goroutine at all. Tasks must not block on one another: enqueue from
// inside one only queues. A nil t is the call of a goroutine handed the
// queue to do (takeOffer), draining set for it: one function rather
// than two, as a frame more would be under every step.
func (a *Agent) enqueue(t *task) {
	a.qmu.Lock()
	if t != nil {
		a.queue = append(a.queue, *t)
		if a.draining {
			a.qmu.Unlock()
			return
		}
		a.draining = true
	}
	for {
		// A task is done where it is queued, not copied out (the copy
		// would sit in this frame under every step): appends made
		// meanwhile write past it, or copy it to a new array, so it is
		// only read until it is cleared under the lock.
		i, queue := a.qhead, a.queue
		a.qhead++
		a.qmu.Unlock()
		a.do(&queue[i])
		for j := 0; j < len(a.backlog); j++ {
			a.do(&a.backlog[j])
			a.backlog[j] = task{}
		}
		a.backlog = a.backlog[:0]
		a.qmu.Lock()
		// Cleared in the array the queue has now, where an append that
		// grew it copied the task.
		a.queue[i] = task{}
		if a.qhead == len(a.queue) {
			// The queue's array is kept for the next tasks.
			a.queue, a.qhead = a.queue[:0], 0
			var offers []offer
			if !a.holdOffers {
				offers, a.offers = a.offers, nil
			}
			a.draining = false
			a.qmu.Unlock()
			deliver(offers)
			return
		}
	}
}

func (a *Agent) do(t *task) {
	if t.run != nil && a.run != t.run {
		return
	}
	switch {
	case t.fn != nil:
		t.fn()
	case t.isResult:
		a.apply(settledAt(&t.result, a.now()))
	case t.sig != nil:
		a.response = t.response
		err := a.apply(t.sig)
		a.response = turn.Response{}
		if err != nil {
			a.log.Debug("conductor: signal refused", "signal", t.sig.SignalKind(), "err", err)
		}
	}
}

// settledAt is a tool result stamped with the time it is applied. It
// stamps a copy: the task stays in the queue, which goroutines handing
// in tasks copy when it grows. Not inlined, so the copy is not in do's
// frame, under every step.
//
//go:noinline
func settledAt(r *contract.ToolSettled, at contract.Timestamp) contract.Signal {
	s := *r
	s.At = at
	return s
}

// call runs fn in turn with the agent's other tasks and waits for its
// error. Once Close has had its turn, fn is refused: a run started then
// would outlive the agent. With ctx done before the agent takes the call
// up, fn is not run and the error matches ctx's (notStarted); once it is
// taken up, fn runs to its end and its own error is returned, whatever
// ctx does meanwhile, so a caller never hears ctx's error for input that
// was in fact applied. The waiter and the task settle which of the two
// happened on one atomic state (callPending and after), so they cannot
// both win.
func (a *Agent) call(ctx context.Context, fn func() error) error {
	if ctx.Err() != nil {
		return notStarted(ctx)
	}
	res := make(chan error, 1)
	state := new(atomic.Int32)
	a.enqueue(&task{fn: func() {
		if !state.CompareAndSwap(callPending, callRunning) {
			return
		}
		if a.closed {
			res <- ErrClosed
			return
		}
		res <- fn()
	}})
	select {
	case err := <-res:
		return err
	case <-ctx.Done():
		if state.CompareAndSwap(callPending, callAbandoned) {
			return notStarted(ctx)
		}
		return <-res
	}
}

// The states of a call queued for the agent: pending until either the
// agent takes it up (running) or its waiter gives up on it as its ctx is
// done (abandoned), which the agent then skips.
const (
	callPending int32 = iota
	callRunning
	callAbandoned
)

// send hands fn, a worker's result, to the agent, unless the run or the
// agent is gone, in which case the result no longer matters.
func (a *Agent) send(run *runState, fn func()) {
	a.enqueue(&task{run: run, fn: fn})
}

// later queues a signal to apply once the current step's effects are all
// performed, before any other task, so steps never nest.
func (a *Agent) later(run *runState, sig contract.Signal) {
	a.backlog = append(a.backlog, task{run: run, sig: sig})
}

// notStarted is the error of a call that started nothing as its ctx was
// done already: it matches ctx's error, and its cause when that differs.
func notStarted(ctx context.Context) error {
	err, cause := ctx.Err(), context.Cause(ctx)
	if cause != err {
		return fmt.Errorf("conductor: nothing started, the context is done: %w: %w", err, cause)
	}
	return fmt.Errorf("conductor: nothing started, the context is done: %w", err)
}
