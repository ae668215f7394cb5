package wire

import (
	"context"
	"net/http"

	"github.com/batonrt/baton/contract"
)

// run starts a run on the thread and streams it. The run belongs to the
// thread, not to the request: a client that leaves stops its stream and
// its subscription, while the run goes on so that the client can resume.
func (h *Handler) run(w http.ResponseWriter, r *http.Request, proto Protocol, in RunAgentInput, turns []contract.Turn) {
	ctx := r.Context()
	t, code, err := h.lookup(ctx, in.ThreadID, true)
	if err != nil {
		httpError(w, code, "%v", err)
		return
	}
	if !h.claim(t) {
		httpError(w, http.StatusConflict, "wire: thread %q already has a run in flight", in.ThreadID)
		return
	}
	f := newFeed(ctx)
	unsubscribe := t.r.Subscribe(f.push)
	defer unsubscribe()
	s := newStreamer(w, r, t.r, in.ThreadID, proto)
	// Read before the run starts: everything newer is this run's.
	s.last, s.started = t.r.Snapshot().Seq, true
	done := make(chan struct{})
	var runErr error
	h.runs.Add(1)
	go func() {
		defer h.runs.Done()
		defer close(done)
		defer h.release(t)
		_, runErr = t.r.Submit(context.WithoutCancel(ctx), turns)
	}()
	w.WriteHeader(http.StatusOK)
	err = s.follow(ctx, f, done)
	if err == nil && s.runID == "" {
		// The run never started: say why in the protocol's terms.
		<-done
		err = s.failedToStart(in, runErr)
	}
	if err == nil {
		err = s.done()
	}
	if err != nil && ctx.Err() == nil {
		h.log.Warn("wire: stream ended early", "thread", in.ThreadID, "err", err)
	}
}

func (s *streamer) failedToStart(in RunAgentInput, runErr error) error {
	msg := "run did not start"
	code := string(contract.KindInternal)
	if runErr != nil {
		msg = runErr.Error()
		if re, ok := contract.AsRunError(runErr); ok {
			code = string(re.Kind)
		}
	}
	switch {
	case s.nd != nil:
		return s.nd.WriteEvent(contract.RunEvent{SessionID: in.ThreadID, Kind: contract.EvRunFaulted, Text: msg, Err: &contract.RunError{Kind: contract.ErrorKind(code), Message: msg}})
	case s.ui != nil:
		return s.writeUI([]UIChunk{
			{Type: UIStart, MessageMetadata: UIRunMetadata{SessionID: in.ThreadID, RunID: in.RunID}},
			{Type: UIError, ErrorText: msg},
			{Type: UIFinish, FinishReason: "error"},
		})
	}
	return s.writeAGUI([]AGUIEvent{
		{Type: AGUIRunStarted, ThreadID: in.ThreadID, RunID: in.RunID},
		{Type: AGUIRunError, Message: msg, Code: code},
	})
}

func (h *Handler) claim(t *thread) bool {
	h.mu.Lock()
	defer h.mu.Unlock()
	if t.running || t.r.Snapshot().Phase.InFlight() {
		return false
	}
	t.running = true
	return true
}

func (h *Handler) release(t *thread) {
	h.mu.Lock()
	t.running = false
	h.mu.Unlock()
}

// resume streams the committed events after lastID, re-projected from the
// store, then follows the run in flight, if any, to its end.
func (h *Handler) resume(w http.ResponseWriter, r *http.Request, threadID, lastID string) {
	if threadID == "" {
		httpError(w, http.StatusBadRequest, "wire: threadId is empty")
		return
	}
	after, err := parseEventID(lastID)
	if err != nil {
		httpError(w, http.StatusBadRequest, "%v", err)
		return
	}
	ctx := r.Context()
	t, code, err := h.lookup(ctx, threadID, false)
	if err != nil {
		httpError(w, code, "%v", err)
		return
	}
	f := newFeed(ctx)
	unsubscribe := t.r.Subscribe(f.push)
	defer unsubscribe()
	events, err := t.r.EventsSince(ctx, 0)
	if err != nil {
		httpError(w, http.StatusInternalServerError, "wire: events of %q: %v", threadID, err)
		return
	}
	s := newStreamer(w, r, t.r, threadID, ProtocolAGUI)
	w.WriteHeader(http.StatusOK)
	// Replaying the earlier events silently gives the projector the state
	// (run in flight, message ids) the client's stream had.
	i := 0
	for ; i < len(events) && events[i].Seq <= after; i++ {
		s.silent(events[i])
	}
	s.last, s.started = after, true
	s.runID, _ = s.inRun()
	if err := s.resumeRest(ctx, t, f, events[i:]); err != nil && ctx.Err() == nil {
		h.log.Warn("wire: resumed stream ended early", "thread", threadID, "err", err)
	}
}

func (s *streamer) resumeRest(ctx context.Context, t *thread, f *feed, rest []contract.RunEvent) error {
	if s.nd == nil && s.ui == nil {
		if err := s.writeAGUI(s.proj.Resume()); err != nil {
			return err
		}
	}
	for _, ev := range rest {
		if err := s.emit(ev); err != nil {
			return err
		}
	}
	if _, running := s.inRun(); !running {
		return nil
	}
	done := make(chan struct{})
	if !t.r.Snapshot().Phase.InFlight() {
		close(done)
	}
	return s.follow(ctx, f, done)
}
