package conductor

import (
	"context"
	"errors"
	"fmt"
	"log/slog"

	"github.com/batonrt/baton/cadence"
	"github.com/batonrt/baton/compactor"
	"github.com/batonrt/baton/contract"
	"github.com/batonrt/baton/dispatch"
	"github.com/batonrt/baton/store"
)

// Submit drives input to the end of a run and returns the terminal
// snapshot, with the run's *contract.RunError when it faulted. While a
// run is in flight, Submit steers it instead and returns when that same
// run ends. Cancelling ctx aborts the run: it ends faulted, with an error
// matching contract.ErrAborted, and the error Submit returns matches
// ctx's error (and its cause) too; the fault the session records, the
// snapshot's Err, does not, as the store keeps no cause. A ctx done
// before Submit is called starts
// and steers nothing: the error says so and matches ctx's error (and its
// cause), not ErrAborted, as no run began. When the store refuses a new
// session's first record, nothing of the session is stored: Submit
// returns the store's error, the session is let go, and the agent takes
// the next Submit (see Failed).
func (a *Agent) Submit(ctx context.Context, in Input) (contract.RunSnapshot, error) {
	// The caller waits in wait, running the run's model calls, so
	// Submit's own frame is kept small: it is on the stack of every run
	// in flight. Snapshots travel by pointer for that.
	var o *outcome
	run, w, steering, err := a.submit(ctx, in)
	if err != nil {
		o = a.refused(err)
	} else {
		o = a.wait(ctx, run, w, !steering)
	}
	return o.snap, o.err
}

// refused is the outcome of a call that started nothing. It is not
// inlined, so the snapshot it copies takes no room in the frames of
// Submit and wait, which stay on the stack while a run is in flight.
//
//go:noinline
func (a *Agent) refused(err error) *outcome {
	return &outcome{snap: a.Snapshot(), err: err}
}

// submit starts a run with in, or steers the run in flight with it.
func (a *Agent) submit(ctx context.Context, in Input) (run *runState, w chan *outcome, steering bool, err error) {
	if ctx.Err() != nil {
		// Not even the retriever is asked.
		return nil, nil, false, notStarted(ctx)
	}
	if err := in.check(); err != nil {
		return nil, nil, false, err
	}
	input := in.turns(a.est)
	if len(input) == 0 {
		return nil, nil, false, contract.NewError(contract.KindConfig, "submit: empty input")
	}
	retrieved, retrievalErr := a.retrieve(ctx, input)
	instructions, err := a.instructions()
	if err != nil {
		return nil, nil, false, contract.WrapError(contract.KindConfig, err, "submit: project instructions")
	}
	sb := &submission{input: input, retrieved: retrieved, retrievalErr: retrievalErr, instructions: instructions, tools: in.Tools}
	w = make(chan *outcome, 1)
	err = a.call(ctx, func() error {
		run, steering, err = a.take(ctx, sb, w)
		return err
	})
	return run, w, steering, err
}

// take starts a run with sb, or steers the run in flight with it; in
// turn. w is answered when that run ends.
func (a *Agent) take(ctx context.Context, sb *submission, w chan *outcome) (run *runState, steering bool, err error) {
	if a.failed != nil {
		return nil, false, a.failed
	}
	if a.state.Phase.InFlight() && a.run != nil {
		return a.run, true, a.steerWith(sb, w)
	}
	if err := a.lockSession(ctx, a.state.SessionID); err != nil {
		return nil, false, err
	}
	if err := a.startRun(ctx, sb, w); err != nil {
		if a.state.Steps == 0 {
			// Nothing of this session is ours yet: another agent may take it.
			a.unlock()
		}
		return nil, false, err
	}
	return a.run, false, nil
}

// steerWith folds a Submit made while a run is in flight into that run.
func (a *Agent) steerWith(sb *submission, w chan *outcome) error {
	if err := a.unoffered(sb.tools); err != nil {
		return err
	}
	if sb.retrievalErr != "" {
		return contract.NewError(contract.KindRetrieval, "retriever failed: %s", sb.retrievalErr)
	}
	// The waiter is registered first: the steer's own step may end the
	// run (turn cap, store failure) and answer its waiters.
	run := a.run
	run.waiters = append(run.waiters, w)
	if err := a.apply(contract.Steered{Input: steerInput(sb.retrieved, sb.input), At: a.now()}); err != nil {
		run.waiters = run.waiters[:len(run.waiters)-1]
		return err
	}
	return nil
}

// startRun begins a run on the locked session; in turn (enqueue).
func (a *Agent) startRun(ctx context.Context, sb *submission, w chan *outcome) error {
	if a.state.Steps == 0 {
		if _, err := a.store.Head(ctx, a.state.SessionID); err == nil {
			return contract.NewError(contract.KindConfig, "session %q is already stored: Resume it first, or use a new session id", a.state.SessionID)
		}
	}
	box, err := a.deps.Tools.Box.With(sb.tools...)
	if err != nil {
		return contract.WrapError(contract.KindConfig, err, "submit: tools")
	}
	run := a.newRun(a.deps.Env.IDs.NewID("run"), box)
	run.waiters = append(run.waiters, w)
	if err := a.applyFirst(a.submitted(run.id, sb), a.state.Steps == 0); err != nil {
		if a.run == run {
			a.run = nil
		}
		run.end()
		if a.failed != nil {
			return a.failed
		}
		return err
	}
	return nil
}

// submitted is the signal that starts run id with sb.
func (a *Agent) submitted(id string, sb *submission) contract.Signal {
	cfg := a.rules.Config()
	return contract.Submitted{RunID: id, Input: sb.input, Retrieved: sb.retrieved, RetrievalError: sb.retrievalErr, Instructions: sb.instructions, Tools: descriptors(sb.tools), Allowed: sb.allowed, Config: &cfg, At: a.now()}
}

// steerInput puts retrieved context before the input of a Submit folded
// in as steering.
func steerInput(retrieved, input []contract.Turn) []contract.Turn {
	return append(append([]contract.Turn(nil), retrieved...), input...)
}

// contextTurns keeps what a retriever returned that can stand in history:
// turns with content and no tool calls or results (those would break the
// pairing of calls and results), as user context whatever role the
// retriever left on them. Text is made valid UTF-8, and each turn carries
// its token estimate.
func contextTurns(log *slog.Logger, est compactor.Estimator, retrieved []contract.Turn) []contract.Turn {
	var out []contract.Turn
	for _, turn := range validTurns(retrieved) {
		usable := len(turn.Blocks) > 0
		for _, b := range turn.Blocks {
			usable = usable && b.Kind != contract.BlockToolCall && b.Kind != contract.BlockToolResult
		}
		if !usable {
			log.Warn("conductor: retriever returned a turn that cannot stand in history; dropped", "blocks", len(turn.Blocks))
			continue
		}
		turn.Role = contract.RoleUser
		turn.Tokens = est.Turn(turn)
		out = append(out, turn)
	}
	return out
}

// wait blocks until the run ends; a cancelled ctx aborts it first.
func (a *Agent) wait(ctx context.Context, run *runState, w chan *outcome, starter bool) *outcome {
	if run == nil {
		return <-w
	}
	// The caller that started the run works for it while it waits (see
	// spawn), so a model call may be running here when ctx ends: the
	// abort must not wait for this goroutine.
	var host chan hosted
	if starter {
		host = run.host
		defer a.dropHost(run)
	}
	var stopped *ctxStop
	if ctx.Done() != nil {
		stopped = &ctxStop{}
		stop := context.AfterFunc(ctx, func() { stopped.abort(a, run, ctx) })
		defer stop()
	}
	for {
		select {
		case o := <-w:
			run.wg.Wait()
			return stopped.outcome(o)
		case h := <-host:
			if h.job == nil {
				a.handIn(run, &h.result, true)
				break
			}
			a.work(run, h.job, true)
			a.workers.Done()
		case <-a.quit:
			// Close answered the waiters first; a run left waiting for
			// people has its answer there too.
			select {
			case o := <-w:
				run.wg.Wait()
				return stopped.outcome(o)
			default:
				return a.refused(ErrClosed)
			}
		}
	}
}

// Steer delivers input to the run in flight at its next model-call
// boundary; tool calls not yet started are skipped. Steering goes to the
// root run only: a delegate's child run is not steered, and a delegate
// call already running goes on (one not started is skipped). It returns
// nil once the input is recorded; ErrNoRun when no run is in flight, and
// the store's error when the input could not be recorded (the run ends).
// A run's tools are set when it starts: in.Tools may only name tools it
// offers already, and bringing another is a config error. With ctx done
// before the agent takes the input up, nothing is steered and the error
// matches ctx's; once taken up, the input is applied or refused as said,
// whatever ctx does meanwhile, and that is what Steer returns.
func (a *Agent) Steer(ctx context.Context, in Input) error {
	return a.inputSignal(ctx, in, func(turns []contract.Turn) contract.Signal { return contract.Steered{Input: turns, At: a.now()} })
}

// FollowUp queues input that continues the run in flight when it would
// otherwise settle. Like Steer, it refuses tools the run does not offer,
// and like Steer, a ctx done before the agent takes the input up queues
// nothing and the error matches ctx's, while input taken up has its own
// result whatever ctx does meanwhile.
func (a *Agent) FollowUp(ctx context.Context, in Input) error {
	return a.inputSignal(ctx, in, func(turns []contract.Turn) contract.Signal { return contract.FollowUpQueued{Input: turns, At: a.now()} })
}

// Approve answers a pending approval request: the run's own, or else one
// of a delegate's child run (see ApproveSubflow to name which). A
// decision whose scope is neither once (or empty) nor session is refused
// with ErrRejected. A
// decision on a call of the run's own that was decided already is
// refused, not offered to a child whose call shares its id. With ctx done
// before the agent (or, for a child's call, no child) takes the decision
// up, nothing is decided and the error matches ctx's; a decision taken up
// has its own result whatever ctx does meanwhile.
func (a *Agent) Approve(ctx context.Context, callID string, d Decision) error {
	if err := unknownScope(d); err != nil {
		return err
	}
	_, err := a.approveTree(ctx, callID, d)
	return err
}

// approveTree is Approve, also reporting whether a run of the tree has a
// call of the id that needs approval, decided or not: a refusal of such
// a call says why it no longer waits, which the refusal of a run with
// no call of the id does not.
func (a *Agent) approveTree(ctx context.Context, callID string, d Decision) (own bool, err error) {
	err = a.hostSignal(ctx, func() (contract.Signal, error) {
		own = a.ownAsk(callID, func(t contract.ToolDescriptor) bool { return t.NeedsApproval })
		return resolution(callID, d, a.now()), nil
	})
	if errors.Is(err, ErrRejected) && !own {
		return a.offerChildren(ctx, func(k *Agent) (bool, error) { return k.approveTree(ctx, callID, d) }, err)
	}
	return own, err
}

// Abort stops the run in flight: at once, after the model's reply, or
// after the running tools finish. With no run in flight it does nothing.
// When the store cannot record the abort, the run stops all the same,
// with a store error Abort returns too: the run stays in flight in the
// store, for Resume to pick up. With ctx done before the agent takes the
// abort up, nothing is aborted and the error matches ctx's; once taken
// up, the abort is carried to its end, to the run's children too,
// whatever ctx does meanwhile.
func (a *Agent) Abort(ctx context.Context, mode contract.AbortMode) error {
	children := false
	err := a.call(ctx, func() error {
		if a.run == nil {
			return nil
		}
		if err := a.abortNow(mode, "aborted by host"); err != nil {
			return err
		}
		// AbortNow ends the run and cancels its delegate calls; a run that
		// waits for its running calls waits for its children, which must
		// hear the abort too, or a child waiting for a person (or calling
		// its model turn after turn) keeps the run in flight.
		children = mode == contract.AbortAfterTools && a.run != nil && len(a.run.children) > 0
		return nil
	})
	if err == nil && children {
		// A child whose abort the store refused stops its parent's run
		// (childFailed), which stays in flight in the store: the abort
		// was not all taken. The abort was taken up: its children hear it
		// whatever ctx does now.
		ctx := context.WithoutCancel(ctx)
		kids, _ := a.runningChildren(ctx)
		for _, k := range kids {
			if cerr := k.agent.Abort(ctx, mode); errors.Is(cerr, contract.ErrStore) && err == nil {
				err = cerr
			}
		}
	}
	return err
}

func (a *Agent) abortNow(mode contract.AbortMode, reason string) error {
	return a.applyInput(contract.AbortRequested{Mode: mode, Reason: reason, At: a.now()})
}

// hostSignal applies the signal that signal returns to the run in flight, in
// turn; ctx is as for call.
func (a *Agent) hostSignal(ctx context.Context, signal func() (contract.Signal, error)) error {
	return a.call(ctx, func() error {
		if a.failed != nil {
			return a.failed
		}
		if a.run == nil {
			return ErrNoRun
		}
		sig, err := signal()
		if err != nil {
			return err
		}
		return a.applyInput(sig)
	})
}

// applyInput applies sig, a host's input, and returns an error unless it
// was recorded: apply answers a failed persist by ending the run, not
// with an error, and input that was not recorded was not taken either.
// In turn (enqueue), with no store failure yet.
func (a *Agent) applyInput(sig contract.Signal) error {
	if err := a.apply(sig); err != nil {
		return err
	}
	if a.failed != nil {
		return a.failed
	}
	return nil
}

// lockSession takes the store's lock on the session for as long as the
// agent drives it, and has the agent stop when it loses the lock.
func (a *Agent) lockSession(ctx context.Context, id string) error {
	if a.lease != nil {
		return nil
	}
	lease, err := a.store.Lease(ctx, id)
	if err != nil {
		return contract.WrapError(contract.KindStore, err, "lock session "+id)
	}
	a.lease = lease
	a.unwatchLease = lease.AfterLost(func() {
		a.enqueue(&task{fn: func() { a.lockLost(lease) }})
	})
	return nil
}

func (a *Agent) unlock() { a.unlockLeaving(false) }

// unlockLeaving lets go of the session's lock; with leave, as a holder
// that dies lets it go (store.Lease.Leave).
func (a *Agent) unlockLeaving(leave bool) {
	if a.lease == nil {
		return
	}
	a.unwatchLease()
	release := a.lease.Release
	if leave {
		release = a.lease.Leave
	}
	if err := release(); err != nil {
		a.log.Warn("conductor: release session lock", "err", err)
	}
	a.lease, a.unwatchLease = nil, nil
}

// Resume rehydrates a stored session into this idle agent and, when the
// session has a run in flight, finishes it: calls that were handed out
// but not started run, started calls run again only when idempotent (the
// call id is the idempotency key) and otherwise get an "indeterminate"
// error result, and pending approvals are asked again. It returns the
// session's snapshot once nothing is in flight, with the error of the run
// it finished. A run that had ended before (settled, faulted or aborted)
// is no error of Resume's: its error stays in the snapshot's Err, and the
// next Submit starts a new run on the session. tools are the run's own
// tools, as its Submit gave them (Input.Tools): a run in flight calls
// them, and runs an interrupted idempotent call of theirs again.
//
// Cancelling ctx aborts the run it finishes, as for Submit, and a ctx
// done before the call starts nothing. When Resume fails (the session
// cannot be locked or read, tools cannot make a tool box, the store or
// the rules refuse the resume's record), nothing of the session is the
// agent's: its lock is let go, and Resume may be tried again. The agent
// keeps the state it had, but not the lock of its former session, which
// its next Submit takes again.
func (a *Agent) Resume(ctx context.Context, sessionID string, tools ...dispatch.Tool) (contract.RunSnapshot, error) {
	w := make(chan *outcome, 1)
	var run *runState
	err := a.call(ctx, func() error {
		var err error
		run, err = a.resumeOnLoop(ctx, sessionID, w, tools)
		return err
	})
	if err != nil {
		return a.Snapshot(), err
	}
	o := a.wait(ctx, run, w, true)
	return o.snap, o.err
}

// Reopen rehydrates a stored session like Resume, but returns as soon as
// a run in flight has picked up again, without waiting for it to end: for
// hosts whose runs wait for people (a question, an approval answered with
// Agent.Approve), where the answer may come much later, through Answer or
// Approve, and the run then ends on its own. tools, ctx and failures are
// as for Resume.
func (a *Agent) Reopen(ctx context.Context, sessionID string, tools ...dispatch.Tool) (contract.RunSnapshot, error) {
	w := make(chan *outcome, 1)
	err := a.call(ctx, func() error {
		run, err := a.resumeOnLoop(ctx, sessionID, w, tools)
		if run != nil {
			a.dropHost(run)
		}
		return err
	})
	return a.Snapshot(), err
}

// resumeOnLoop rehydrates the session and, when a run is in flight,
// restarts it, returning it; w gets the outcome. When it fails, nothing
// of the session is the agent's: the session is let go, and the agent
// stays as it was. In turn (enqueue).
func (a *Agent) resumeOnLoop(ctx context.Context, sessionID string, w chan *outcome, tools []dispatch.Tool) (*runState, error) {
	if a.run != nil {
		return nil, ErrBusy
	}
	a.unlock()
	if err := a.lockSession(ctx, sessionID); err != nil {
		return nil, err
	}
	// Folding from the newest checkpoint may save a new one, so the
	// session is locked first.
	snap, err := store.Resume(ctx, a.store, a.rules, sessionID)
	if err != nil {
		a.unlock()
		return nil, contract.WrapError(contract.KindStore, err, "resume "+sessionID)
	}
	if !snap.Phase.InFlight() {
		a.failed = nil
		a.hold()
		a.state = snap
		a.show()
		a.clearFailed()
		w <- &outcome{snap: a.handedOut()}
		return nil, nil
	}
	run, err := a.restart(snap, w, tools)
	if err != nil {
		a.unlock()
		return nil, err
	}
	a.clearFailed()
	return run, nil
}

// restart picks up snap's run in flight, on tools; w gets its outcome.
// The agent takes snap on once the resume is recorded, and stays as it
// was when the tools cannot be had or the record is refused. In turn.
func (a *Agent) restart(snap contract.RunSnapshot, w chan *outcome, tools []dispatch.Tool) (*runState, error) {
	box, err := a.deps.Tools.Box.With(tools...)
	if err != nil {
		return nil, contract.WrapError(contract.KindConfig, err, "resume: tools")
	}
	cfg := a.rules.Config()
	return a.pickUp(snap, box, w, contract.Resumed{Revision: cfg.Revision, Config: &cfg, At: a.now()})
}

// pickUp takes on snap's run in flight, on box, with sig as its first
// step here; w gets its outcome. The agent stays as it was when the
// store or the rules refuse sig. In turn.
func (a *Agent) pickUp(snap contract.RunSnapshot, box *dispatch.ToolBox, w chan *outcome, sig contract.Signal) (*runState, error) {
	failed := a.failed
	a.hold()
	a.failed, a.state = nil, snap
	run := a.newRun(snap.RunID, box)
	run.waiters = append(run.waiters, w)
	run.stored = storedChildren(snap.Pending)
	if err := a.applyFirst(sig, true); err != nil {
		a.run = nil
		run.end()
		a.failed = failed
		a.restore()
		return nil, err
	}
	return run, nil
}

// clearFailed shows hosts that the agent takes work again (Failed).
func (a *Agent) clearFailed() {
	a.mu.Lock()
	a.shownFailed = nil
	a.mu.Unlock()
}

// EventsSince returns the committed events after seq, re-projected from
// the store by folding the session's records: what a reconnecting client
// missed. Streaming deltas are not stored; the turn_completed events carry
// the whole turns instead.
func (a *Agent) EventsSince(ctx context.Context, seq uint64) ([]contract.RunEvent, error) {
	id := a.SessionID()
	records, err := a.store.Records(ctx, id)
	if errors.Is(err, store.ErrNotFound) {
		return nil, nil
	}
	if err != nil {
		return nil, contract.WrapError(contract.KindStore, err, "events of "+id)
	}
	return ReplayEvents(a.rules, id, records, seq)
}

// ReplayEvents folds records from a new session and returns the published
// events with Seq above after.
func ReplayEvents(rules *cadence.Rules, sessionID string, records []contract.Record, after uint64) ([]contract.RunEvent, error) {
	var out []contract.RunEvent
	for f, err := range rules.Steps(cadence.InitialSnapshot(sessionID), records) {
		if err != nil {
			return out, fmt.Errorf("conductor: replay: %w", err)
		}
		for _, e := range f.Effects {
			if p, ok := e.(*contract.Publish); ok && p.Event.Seq > after {
				out = append(out, p.Event)
			}
		}
	}
	return out, nil
}
