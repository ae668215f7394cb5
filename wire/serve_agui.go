package wire

import (
	"context"
	"net/http"

	"github.com/batonrt/baton/contract"
	"github.com/batonrt/baton/wire/agui"
)

// post starts a run from a RunAgentInput, or resumes a stream when the
// request carries a Last-Event-ID.
func (h *Handler) post(w http.ResponseWriter, r *http.Request) {
	body, ok := readBody(w, r, h.opts.MaxBody)
	if !ok {
		return
	}
	last := r.Header.Get("Last-Event-ID")
	in, err := agui.DecodeInput(body, last == "")
	if err != nil {
		httpError(w, http.StatusBadRequest, "%v", err)
		return
	}
	if last != "" {
		h.resume(w, r, in.ThreadID, last)
		return
	}
	h.run(w, r, ProtocolAGUI, in.ThreadID, in.RunID, in.Turns)
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
		h.opts.Logger.Warn("wire: resumed stream ended early", "thread", threadID, "err", err)
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
