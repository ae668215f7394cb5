package wire

import (
	"errors"
	"net/http"
	"strconv"
	"strings"

	"github.com/batonrt/baton/contract"
	"github.com/batonrt/baton/wire/agui"
)

// post starts a run from a RunAgentInput, or resumes a stream when the
// request carries a Last-Event-ID.
func (h *Handler) post(w http.ResponseWriter, r *http.Request) {
	body, ok := h.readBody(w, r)
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
	if len(in.Answers) > 0 {
		var answers []clientAnswer
		for _, a := range in.Answers {
			answers = append(answers, clientAnswer{callID: a.CallID, text: a.Content})
		}
		h.answer(w, r, ProtocolAGUI, in.ThreadID, answers)
		return
	}
	h.run(w, r, ProtocolAGUI, in.ThreadID, in.RunID, in.Turns)
}

// cursor is a parsed Last-Event-ID: "seq" names a committed event,
// "seq.delta" a streamed one.
type cursor struct {
	seq   uint64
	delta uint32
}

func parseCursor(s string) (cursor, error) {
	seq, delta, hasDelta := strings.Cut(s, ".")
	var c cursor
	var err error
	if c.seq, err = strconv.ParseUint(seq, 10, 64); err == nil && hasDelta {
		var d uint64
		d, err = strconv.ParseUint(delta, 10, 32)
		c.delta = uint32(d)
	}
	if err != nil || len(s) > 41 {
		return cursor{}, errors.New("wire: Last-Event-ID must be \"seq\" or \"seq.delta\"")
	}
	return c, nil
}

// had counts the events of a thread's stream that a client at c has:
// up to the event c names when the stream still holds it, else up to the
// newest committed event at or before c.seq.
func (c cursor) had(events []contract.RunEvent) int {
	if c.delta > 0 {
		for i, ev := range events {
			if len(ev.Subflow) == 0 && ev.Seq == c.seq && ev.Delta == c.delta {
				return i + 1
			}
		}
	}
	n := 0
	for i, ev := range events {
		if len(ev.Subflow) == 0 && ev.Delta == 0 && ev.Seq <= c.seq {
			n = i + 1
		}
	}
	return n
}

// resume streams what a client at lastID missed, then follows the run
// in flight, if any, to its end.
func (h *Handler) resume(w http.ResponseWriter, r *http.Request, threadID, lastID string) {
	at, err := parseCursor(lastID)
	if err != nil {
		httpError(w, http.StatusBadRequest, "%v", err)
		return
	}
	t, ok := h.useThread(w, r, threadID)
	if !ok {
		return
	}
	defer h.release(t)
	ctx := r.Context()
	events, end, err := t.history(ctx)
	switch {
	case err != nil:
		httpError(w, http.StatusInternalServerError, "wire: events of %q: %v", threadID, err)
		return
	case len(events) == 0:
		httpError(w, http.StatusNotFound, "%v: %q has no events", ErrUnknownThread, threadID)
		return
	}
	s := newStreamer(w, r, t, ProtocolAGUI)
	s.park = h.opts.ClientAnswers
	w.WriteHeader(http.StatusOK)
	// Replaying what the client has silently gives the projector the
	// state its stream had: the run in flight, message ids, the text
	// each open message holds.
	n := at.had(events)
	for _, ev := range events[:n] {
		s.silent(ev)
	}
	s.runID, _ = s.inRun()
	if err := s.resumeRest(ctx, events[n:], end); err != nil && ctx.Err() == nil {
		h.opts.Logger.Warn("wire: resumed stream ended early", "thread", threadID, "err", err)
	}
}
