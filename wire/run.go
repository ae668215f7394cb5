package wire

import (
	"context"
	"errors"
	"net/http"

	"github.com/batonrt/baton/conductor"
	"github.com/batonrt/baton/contract"
	"github.com/batonrt/baton/internal/redact"
	"github.com/batonrt/baton/store"
	"github.com/batonrt/baton/wire/agui"
	"github.com/batonrt/baton/wire/aisdk"
)

// run starts a run on the thread and streams it. The run belongs to the
// thread, not to the request: a client that leaves stops its stream,
// while the run goes on so that the client can resume. carried are the
// answers the client gave along with its message, for a run in flight
// that the message steers (see steer).
func (h *Handler) run(w http.ResponseWriter, r *http.Request, proto Protocol, threadID, clientRunID string, turns []contract.Turn, ids []string, carried []clientAnswer) {
	h.runOnce(w, r, proto, threadID, clientRunID, turns, ids, carried, true)
}

// runOnce is run; again says whether a thread that turns out to be
// driven elsewhere (see letGo) may be let go and the request handed on.
func (h *Handler) runOnce(w http.ResponseWriter, r *http.Request, proto Protocol, threadID, clientRunID string, turns []contract.Turn, ids []string, carried []clientAnswer, again bool) {
	t, ok := h.useThread(w, r, threadID)
	if !ok {
		return
	}
	defer h.release(t)
	ctx := r.Context()
	posted, postedIDs := turns, ids
	turns, ids = h.takeNew(t, turns, ids)
	if len(turns) == 0 {
		h.reposted(w, r, proto, t, postedIDs, posted)
		return
	}
	// resumed is the run the message's decisions let go on, when it ended
	// before the message could steer it: the stream shows its rest first.
	var resumed *decided
	for got := h.claim(t); !got; {
		done, gone, d := h.steer(w, r, proto, t, turns, ids, carried, resumed)
		if done {
			return
		}
		if d != nil {
			resumed = d
		}
		switch h.claimWhenReturned(ctx, t, gone) {
		case claimRefused:
			h.untake(t, ids)
			if h.refuseDraining(w, r) {
				return
			}
			httpError(w, http.StatusConflict, "wire: thread %q already has a run in flight", threadID)
			return
		case claimed:
			// The run ended between the first claim and the steer: the
			// message starts the next run.
			got = true
		}
		// claimStarted: a run other than the one the steer missed is in
		// flight (the run claimed before has started, or another post
		// started the next): steer it.
	}
	header := w.Header().Clone()
	s := h.newStreamer(w, r, t, proto)
	s.park = h.opts.ClientAnswers
	// Read before the run starts: everything newer is this run's.
	s.pos = t.log.end()
	start := s.pos
	var err error
	if resumed != nil {
		// Runs other clients started and ended since the decided one are
		// not this stream's: its run is the first to start after the
		// claim.
		err = s.decidedFirst(resumed, following{after: t.r.Snapshot().Seq, via: viaStarting})
	} else {
		// What the log still has of the runs before, their delegates'
		// last events too, is theirs: the stream's run is the first to
		// start after the claim.
		s.last, s.started = t.r.Snapshot().Seq, true
		s.follows = following{after: s.last, via: viaStarting}
	}
	done := make(chan struct{})
	var runErr error
	go func() {
		defer h.runs.Done()
		defer close(done)
		defer h.unclaim(t)
		_, runErr = t.r.Submit(context.WithoutCancel(ctx), turns)
		// The session holds the turns now, or the run never took them.
		h.untake(t, ids)
		h.closeIfFailed(t)
	}()
	if err == nil {
		err = s.follow(ctx, done)
	}
	if err == nil && s.follows.run == "" {
		// The run never started: say why in the protocol's terms.
		<-done
		if again && resumed == nil && errors.Is(runErr, store.ErrLocked) && s.pos == start && h.letGo(t) {
			// The thread opened here holding no lock (its session was not
			// stored yet) and another process drives it now: nothing was
			// written, so the request goes to that process.
			clear(w.Header())
			for k, v := range header {
				w.Header()[k] = v
			}
			h.runOnce(w, r, proto, threadID, clientRunID, turns, ids, carried, false)
			return
		}
		err = s.failedToStart(clientRunID, runErr)
	}
	if err == nil && !t.r.Snapshot().Phase.InFlight() {
		// The run has ended: let its Submit return and release the thread
		// before the client sees the stream end, so a next message sent at
		// once is not refused as a run in flight.
		select {
		case <-done:
		case <-ctx.Done():
		}
	}
	if err == nil {
		err = s.done()
	}
	if err != nil && ctx.Err() == nil {
		h.opts.Logger.Warn("wire: stream ended early", "thread", threadID, "err", err)
	}
}

// steer hands a message posted while the thread's run is in flight
// (running, or waiting for an approval or an answer) to that run as
// steering, as Agent.Submit does, and streams the run on from there, in
// a message of its own for the AI SDK. It reports false, having written
// nothing, when there is no run to steer; gone is then the id of the run
// the runner refused the message for as it had ended, "" when it was
// not asked, and resumed what the client had of that run when the
// message's decisions let it go on (see decidedFirst), nil when they
// decided nothing. Steering that fails while the
// run is in flight is answered with its cause, the messages (ids) left
// for a retry. The answers carried along are applied first, to the calls
// that wait on them: a steer goes to the root run only and waits there
// for a delegate call, so a decision on the delegate's child's request
// that the client gave with its message must not be lost. prior is what
// an earlier steer of the same post returned as resumed: its answers
// were applied, to a run that has ended since, and are not applied
// again; the stream shows that run's rest before the steered run's.
func (h *Handler) steer(w http.ResponseWriter, r *http.Request, proto Protocol, t *thread, turns []contract.Turn, ids []string, carried []clientAnswer, prior *decided) (done bool, gone string, resumed *decided) {
	h.mu.Lock()
	closed := h.closed
	h.mu.Unlock()
	sr, ok := t.r.(SteerRunner)
	snap := t.r.Snapshot()
	if closed || !ok || !snap.Phase.InFlight() {
		return false, "", nil
	}
	ctx := r.Context()
	// Read before steering: everything newer is the client's.
	events, end, err := t.history(ctx)
	var answered map[string]bool
	if err == nil && len(carried) > 0 && prior == nil {
		var code int
		if answered, code, err = carryAnswers(ctx, t.r, carried, events); err != nil {
			h.untake(t, ids)
			httpError(w, code, "%v", err)
			return true, "", nil
		}
	}
	// The run the steer finds: one that ends as the steer returns may
	// have taken the message.
	found := t.r.Snapshot().RunID
	if err == nil {
		err = sr.Steer(ctx, turns)
	}
	if err == nil {
		h.untake(t, ids) // the session holds them now
	}
	if errors.Is(err, conductor.ErrNoRun) || errors.Is(err, conductor.ErrClosed) {
		// The run ended meanwhile, maybe through the decisions just
		// applied: the message may start the next.
		if len(answered) > 0 {
			resumed = &decided{events: events, end: end, answered: answered}
		}
		return false, snap.RunID, resumed
	}
	if err != nil {
		h.untake(t, ids)
		code, msg := steerFailure(err)
		httpError(w, code, "wire: steer thread %q: %s", t.id, msg)
		return true, "", nil
	}
	// The run that took the message: its steering queued, it is still in
	// flight, and it may be the next run rather than the one the events
	// end with (see carryOn).
	took := t.r.Snapshot().RunID
	s := h.newStreamer(w, r, t, proto)
	s.park = h.opts.ClientAnswers
	s.answered = answered
	// No WriteHeader: a chained stream names its chain in a header
	// first (see announceChain); its first write answers 200.
	switch {
	case prior != nil:
		err = s.steeredAfter(ctx, prior, took)
	case took != found:
		// Either run may have taken the message: the one found, which
		// then ended, is shown to its end, and the one in flight after.
		err = s.steeredAfter(ctx, &decided{events: events, end: end, answered: answered}, took)
	default:
		err = s.carryOn(ctx, events, end, took)
	}
	if err != nil && ctx.Err() == nil {
		h.opts.Logger.Warn("wire: steered stream ended early", "thread", t.id, "err", err)
	}
	return true, "", nil
}

// steerFailure is the status and the client's message for steering
// that failed: 409 for input the runner refused, 500 for its store's
// failure, without addresses or keys, as a run's fault is sent.
func steerFailure(err error) (int, string) {
	code := http.StatusInternalServerError
	if re, ok := contract.AsRunError(err); errors.Is(err, conductor.ErrRejected) || ok && re.Kind == contract.KindConfig {
		code = http.StatusConflict
	}
	return code, redact.Error(err.Error())
}

func (s *streamer) failedToStart(runID string, runErr error) error {
	msg := "run did not start"
	code := string(contract.KindInternal)
	if runErr != nil {
		msg = redact.Error(runErr.Error())
		if re, ok := contract.AsRunError(runErr); ok {
			code = string(re.Kind)
		}
	}
	switch {
	case s.nd != nil:
		return s.nd.writeEvent(contract.RunEvent{SessionID: s.t.id, Kind: contract.EvRunFaulted, Text: msg, Err: &contract.RunError{Kind: contract.ErrorKind(code), Message: msg}})
	case s.ui != nil:
		return s.writeUI([]aisdk.Chunk{
			{Type: aisdk.Start, MessageMetadata: aisdk.Metadata{SessionID: s.t.id, RunID: runID}},
			{Type: aisdk.Error, ErrorText: msg},
			{Type: aisdk.Finish, FinishReason: "error"},
		})
	}
	return s.writeAGUI([]agui.Event{
		{Type: agui.RunStarted, ThreadID: s.t.id, RunID: runID},
		{Type: agui.RunError, Message: msg, Code: code},
	})
}
