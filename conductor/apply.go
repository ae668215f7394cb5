package conductor

import (
	"context"
	"errors"
	"fmt"
	"maps"
	"slices"
	"sync"

	"github.com/batonrt/baton/cadence"
	"github.com/batonrt/baton/contract"
	"github.com/batonrt/baton/dispatch"
	"github.com/batonrt/baton/store"
)

// apply steps the reducer and performs the effects in order. It returns
// an error matching ErrRejected when the rules refused the signal, or the
// agent refuses all work after a store failure, and the store's error
// when it refused the record of a claim (see applyFirst).
//
// apply is on the stack under every effect it performs, down to a store
// append or a tool run in place, so it keeps no snapshot in its frame:
// the rules move a.state in place, the durable state held apart until
// the step's persist is durable (hold), and a failed persist goes back
// to it. The step's scratch goes back to the pool when apply returns,
// every effect done with.
func (a *Agent) apply(sig contract.Signal) error {
	if a.failed != nil {
		return fmt.Errorf("%w: %w", ErrRejected, a.failed)
	}
	sc := scratches.Get().(*cadence.Scratch)
	defer putScratch(sc)
	allowed := len(a.state.Allowed)
	held := a.hold()
	effects, err := a.step(sc, sig)
	if err != nil {
		if held {
			a.show() // the state did not move
		}
		return err
	}
	for i, e := range effects {
		if _, ok := e.(*contract.StartDelegate); ok {
			continue
		}
		if err := a.perform(e); err != nil {
			a.restore()
			return a.storeFailed(err)
		}
		if i == 0 {
			// The step is durable (its persist comes first): hosts may see
			// it now, before any of its events reach them.
			a.show()
		}
	}
	a.startDelegates(effects)
	if a.run != nil {
		a.run.dropAnswered(a.state.Pending)
	}
	if len(a.state.Allowed) != allowed {
		a.shareAllowed()
	}
	if a.state.Phase.Terminal() && a.run != nil {
		a.endRun()
	}
	return nil
}

// scratches hold the working memory of steps: a step's effects are all
// performed before apply returns, so its memory serves the next step of
// any agent rather than being allocated, 2 KiB a step and more for a
// batch of calls.
var scratches = sync.Pool{New: func() any { return &cadence.Scratch{PendingInPlace: true} }}

// putScratch clears sc, so a pooled scratch holds no run's history
// alive, and pools it.
func putScratch(sc *cadence.Scratch) {
	sc.Clear()
	scratches.Put(sc)
}

// step moves a.state on by sig in sc and returns the effects to perform,
// the step's persist first. The state stays as it was when the rules
// refuse sig.
//
//go:noinline
func (a *Agent) step(sc *cadence.Scratch, sig contract.Signal) (effects []contract.Effect, err error) {
	effects, err = a.rules.AdvanceIn(sc, &a.state, sig)
	if err != nil {
		return nil, a.refusal(err)
	}
	return effects, nil
}

// refusal is the error apply returns for a signal Step refused.
//
//go:noinline
func (a *Agent) refusal(err error) error {
	var rej *cadence.Rejection
	if errors.As(err, &rej) {
		a.log.Debug("conductor: signal rejected", "signal", rej.Signal, "reason", rej.Reason)
		return fmt.Errorf("%w: %s", ErrRejected, rej.Reason)
	}
	return fmt.Errorf("%w: %w", ErrRejected, err)
}

// storeFailed ends the run when a record could not be made durable: the
// step did not happen, so the agent keeps the last durable state and
// refuses further work until it is resumed. A refused claim is returned
// instead, the agent left as it was: nothing of the session is its own.
// A step refused for want of a config (a stored child no config can end,
// see storedChildConfig) fails as a config error: the host's to mend.
func (a *Agent) storeFailed(err error) error {
	failed := contract.WrapError(contract.KindStore, err, "append to session store failed")
	if errors.Is(err, contract.ErrConfig) {
		failed = contract.WrapError(contract.KindConfig, err, "step not recorded")
	}
	if a.claiming {
		return failed
	}
	a.log.Error("conductor: store failed", "err", err)
	a.halt(failed)
	return nil
}

// applyFirst applies sig, which starts a run, as apply does; first says
// it is the agent's claim on the session, the first record of its hold
// on it: a new session's first submit, or the resume of a stored run
// in flight. The store refusing a claim leaves nothing of the
// session the agent's, so the agent does not refuse work from then on:
// applyFirst returns the store's error, for the caller to let the
// session go.
func (a *Agent) applyFirst(sig contract.Signal, first bool) error {
	a.claiming = first
	defer func() { a.claiming = false }()
	return a.apply(sig)
}

// startDelegates begins the children of a step's delegate calls, once
// the whole step is published: a child runs on its own, and one begun
// between the step's events could publish before its siblings'
// subflow_started, where a stream read back from the store, ordered by
// the time each event was stamped, never has it (wire numbers a
// delegated run's events from the event before). It is not inlined: the
// copy of each effect would sit in apply's frame, deep on the stack of
// every run's caller.
//
//go:noinline
func (a *Agent) startDelegates(effects []contract.Effect) {
	for _, e := range effects {
		if sd, ok := e.(*contract.StartDelegate); ok {
			a.startDelegate(*sd)
		}
	}
}

// lockLost ends the run in flight, at once, when the agent has lost the
// session's lock (lease): another process may be taking the session over,
// and must not find this one still calling the model and running tools
// for the same run. Like a store failure, it leaves the last durable
// state, and the agent refuses further work until it is resumed.
func (a *Agent) lockLost(lease *store.Lease) {
	if a.lease != lease || a.failed != nil {
		return
	}
	a.log.Error("conductor: session lock lost", "err", lease.Err())
	a.halt(contract.WrapError(contract.KindStore, lease.Err(), "stopped driving the session"))
}

// childFailed ends run, when it is still in flight, because a child of
// one of its delegate calls stopped on a store failure (err): the store
// refused one of its records, or it lost its session's lock and this
// process no longer drives the delegation tree. Either way the child's
// run is left in flight in its session. Queued before the call's outcome
// is, so that the child's stop is not written into this session as the
// call's failure, which would leave the child's stored run unfinished for
// good: whoever resumes the tree finds the call unanswered and picks the
// child's run up again.
func (a *Agent) childFailed(run *runState, err error) {
	a.send(run, func() {
		if a.failed != nil {
			return
		}
		a.log.Error("conductor: a delegate's run stopped on a store failure", "err", err)
		a.halt(contract.WrapError(contract.KindStore, err, "stopped driving the delegation"))
	})
}

// halt makes the agent refuse further work with failed, a store error,
// and ends the run in flight with it, and the runs of its delegate
// calls' children with them (haltChildren).
func (a *Agent) halt(failed *contract.RunError) {
	a.failed = failed
	a.mu.Lock()
	a.shownFailed = a.failed
	a.mu.Unlock()
	if a.run == nil {
		return
	}
	a.haltChildren(failed)
	for _, w := range a.dropRun().waiters {
		w <- &outcome{snap: a.handedOut(), err: a.failed}
	}
}

// haltChildren halts the children of the run's delegate calls that have
// begun, before the run's end cancels their calls: a child whose call is
// cancelled is closed, which aborts its run in its session, while a
// halted child writes nothing more and leaves its run in flight in the
// store, as its parent's is, for whoever resumes the tree. Queued on
// each child ahead of that close.
func (a *Agent) haltChildren(failed *contract.RunError) {
	for _, session := range slices.Sorted(maps.Keys(a.run.children)) {
		ag := a.run.children[session].running()
		if ag == nil {
			continue
		}
		ag.enqueue(&task{fn: func() {
			if ag.failed == nil {
				ag.halt(failed)
			}
		}})
	}
}

// dropRun forgets the run in flight and stops all it started: its
// context (workers, the model call, people asked), its tool calls and
// its streaming events. The caller answers the run's waiters.
func (a *Agent) dropRun() *runState {
	run := a.run
	a.run = nil
	run.end()
	a.sched.CancelAll()
	run.deltas.close()
	return run
}

// end stops the run: its contexts end, and its crew calls no helper.
func (run *runState) end() {
	run.crew.end()
	run.cancel()
}

func (a *Agent) endRun() {
	run := a.dropRun()
	snap := a.handedOut()
	var err error
	if snap.Err != nil {
		err = snap.Err
	}
	observe(a, "on_run_end", func(h RunEndHook) error { h(context.Background(), snap); return nil })
	for _, w := range run.waiters {
		w <- &outcome{snap: snap, err: err}
	}
}

// newRun prepares the agent's bookkeeping for a run.
func (a *Agent) newRun(id string, box *dispatch.ToolBox) *runState {
	ctx, cancel := context.WithCancel(context.Background())
	r := &runState{id: id, ctx: ctx, cancel: cancel, host: make(chan hosted, 1)}
	r.box.Store(box)
	r.helper = helper{run: r}
	// Whoever started the run waits for it and works for it meanwhile
	// (wait); Reopen, which does not wait, drops it (dropHost).
	r.crew.hostFree = true
	r.crew.workers, r.crew.running = &a.workers, &r.wg
	r.crew.call = func() { a.startCounted(r, &r.helper) }
	r.crew.patience = helperWait
	a.run = r
	return r
}
