package conductor

import (
	"context"
	"maps"
	"slices"
	"time"

	"github.com/batonrt/baton/contract"
)

// closeGrace is how long Close waits for tools that ignore cancellation
// before it returns an error naming them (dispatch.ErrStragglers): a tool
// that never returns must not keep its host from shutting down.
const closeGrace = 10 * time.Second

// Close aborts a run in flight, waits for every goroutine the agent
// started and releases the session. A run that only waits for people
// (awaiting_human, awaiting_approval), itself or in the children of its
// delegate calls, is not aborted: it stays in flight in the store, the
// children's runs with it, and Resume or Reopen picks it up, so a
// question survives a restart; a Submit waiting on it returns ErrClosed.
// It is safe to call more than once, but not from the agent's own
// callbacks (a subscriber, a hook, the approver or the retriever): Close
// waits for them to return.
func (a *Agent) Close() error {
	return a.close(false)
}

// Leave closes the agent as Close does, except that a run in flight is
// not aborted but left as a process that dies leaves it: its model call
// and tools are cancelled and nothing more of it is recorded, so the
// store keeps it in flight, the runs of its delegate calls' children
// with it, and whoever resumes the session (Resume, Reopen, in this
// process or another) picks it up from its last durable step. Subscribers
// get EvRunDetached, and a Submit waiting on the run returns ErrClosed. A
// server that restarts calls it for the runs it could not let finish.
func (a *Agent) Leave() error {
	return a.close(true)
}

// close is Close, or Leave when leave is set.
func (a *Agent) close(leave bool) error {
	var err error
	a.closing.Do(func() {
		done := make(chan struct{})
		a.enqueue(&task{fn: func() {
			switch {
			case a.run == nil || !a.state.Phase.InFlight():
			case a.waitsOnlyForPeople():
				// Nothing runs: the run stays in the store, waiting, for
				// Resume or Reopen to pick up after a restart.
				a.detachTree()
			case leave:
				a.leaveTree()
				// Let go as a process that dies does, for another process
				// sharing the store to take the run up (store.Lease.Leave).
				a.unlockLeaving(true)
			default:
				a.apply(contract.AbortRequested{Mode: contract.AbortNow, Reason: "agent closed", At: a.now()})
			}
			a.unlock()
			a.closed = true
			close(done)
		}})
		<-done
		a.qmu.Lock()
		a.shut = true
		a.qmu.Unlock()
		close(a.quit)
		a.workers.Wait()
		ctx, cancel := context.WithTimeout(context.Background(), closeGrace)
		defer cancel()
		err = a.sched.Close(ctx)
		a.hub.Close()
	})
	return err
}

// detachTree lets go of a run that waits only for people and of its
// children's runs, ending none: each child that has begun is closed
// first, which leaves its own run waiting in the store, so that letting
// go of the run's calls then stops no child. In turn (enqueue).
func (a *Agent) detachTree() {
	for _, session := range slices.Sorted(maps.Keys(a.run.children)) {
		ag := a.run.children[session].running()
		if ag == nil {
			continue
		}
		if err := ag.Close(); err != nil {
			a.log.Warn("conductor: close delegate", "session", session, "err", err)
		}
	}
	a.detachRun()
}

// leaveTree lets go of a run in flight without ending it (Leave): the
// children of its delegate calls that have begun are told to let go of
// theirs first, queued ahead of the close that the end of their calls
// brings, so that none of them records an abort either. In turn
// (enqueue).
func (a *Agent) leaveTree() {
	for _, session := range slices.Sorted(maps.Keys(a.run.children)) {
		ag := a.run.children[session].running()
		if ag == nil {
			continue
		}
		ag.enqueue(&task{fn: func() {
			if ag.run != nil && ag.failed == nil {
				ag.leaveTree()
			}
		}})
	}
	a.detachRun()
}

// detachRun lets go of a run that waits for people, or that the agent
// leaves in flight, without ending it: its workers (model call, tools,
// approvers, answerers) are stopped and its waiters told the agent
// closed; the store keeps the run in flight. In turn (enqueue).
func (a *Agent) detachRun() {
	a.publish(&contract.RunEvent{Kind: contract.EvRunDetached, Seq: a.state.Seq, SessionID: a.state.SessionID, RunID: a.state.RunID, At: a.now()})
	for _, w := range a.dropRun().waiters {
		w <- &outcome{snap: a.handedOut(), err: ErrClosed}
	}
}
