package wire

import (
	"errors"
	"net/http"
	"slices"
	"strconv"
	"strings"

	"github.com/batonrt/baton/contract"
	"github.com/batonrt/baton/wire/agui"
	"github.com/batonrt/baton/wire/internal/track"
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
	var answers []clientAnswer
	for _, a := range in.Answers {
		answers = append(answers, clientAnswer{callID: a.CallID, text: a.Content})
	}
	if len(in.Turns) == 0 {
		h.answer(w, r, ProtocolAGUI, in.ThreadID, answers)
		return
	}
	h.run(w, r, ProtocolAGUI, in.ThreadID, in.RunID, in.Turns, runKeyed(in.RunID, in.TurnIDs), answers)
}

// runKeyed names the messages that have no id of their own by the
// client's run id and their place among the new messages: a runId is
// the client's for one run, so a RunAgentInput posted again is known by
// it as one whose messages carry ids is by theirs.
func runKeyed(runID string, ids []string) []string {
	if runID == "" || !slices.Contains(ids, "") {
		return ids
	}
	out := slices.Clone(ids)
	for i, id := range out {
		if id == "" {
			out[i] = "run:" + runID + "#" + strconv.Itoa(i)
		}
	}
	return out
}

// cursor is a parsed Last-Event-ID: "seq" names a committed event,
// "seq.delta" a streamed one, and "seq.delta:mark" a streamed one and
// what the client has of its model call (track.Mark). Any of them
// followed by "+n" names the n-th event the store keeps of delegated
// runs after it (see agui.Projector), or followed by "+session:seq" or
// "+session:seq.delta" a delegated run's event after it (delegatedAt).
type cursor struct {
	seq   uint64
	delta uint32
	mark  *track.Mark
	sub   int
	in    *delegatedAt
}

// maxOwnID bounds a Last-Event-ID but for its delegated event's part
// (maxDelegatedAt): "+n" counts in.
const maxOwnID = 200

func parseCursor(s string) (cursor, error) {
	bad := errors.New("wire: Last-Event-ID must be \"seq\", \"seq.delta\" or \"seq.delta:mark\", each maybe followed by \"+n\", \"+session:seq\" or \"+session:seq.delta\"")
	whole := s
	s, sub, hasSub := strings.Cut(s, "+")
	var c cursor
	var err error
	switch {
	case hasSub && strings.Contains(sub, ":"):
		if c.in, err = parseDelegatedAt(sub); err != nil {
			return cursor{}, err
		}
	case hasSub:
		n, err := strconv.ParseUint(sub, 10, 31)
		if err != nil || n == 0 {
			return cursor{}, bad
		}
		c.sub = int(n)
	}
	if len(s) > maxOwnID || (c.in == nil && len(whole) > maxOwnID) {
		return cursor{}, bad
	}
	id, mark, hasMark := strings.Cut(s, ":")
	seq, delta, hasDelta := strings.Cut(id, ".")
	if c.seq, err = strconv.ParseUint(seq, 10, 64); err == nil && hasDelta {
		var d uint64
		d, err = strconv.ParseUint(delta, 10, 32)
		c.delta = uint32(d)
	}
	if err == nil && hasMark {
		var m track.Mark
		if m, err = track.ParseMark(mark); hasDelta {
			c.mark = &m
		}
	}
	if err != nil || (hasMark && !hasDelta) {
		return cursor{}, bad
	}
	return c, nil
}

// had counts the events of a thread's stream that a client at c has:
// up to the event c names when the stream still holds it, else up to the
// newest committed event at or before c.seq.
func (c cursor) had(events []contract.RunEvent) int {
	n, _ := c.find(events)
	return n
}

// find is had, and whether the stream holds the event c names.
func (c cursor) find(events []contract.RunEvent) (int, bool) {
	n, exact := c.findOwn(events)
	if !exact {
		return n, false
	}
	// The delegated runs' events the client has follow the run's own
	// event it names, before any other of the run's own; an NDJSON
	// client names the last, an AG-UI one counts those the store keeps
	// (see agui.Projector).
	if c.in != nil {
		return c.in.after(events, n), true
	}
	// A lag notice among them is not an event of the run's own: the
	// projector counts on across it.
	for k := c.sub; k > 0 && n < len(events) && (len(events[n].Subflow) > 0 || events[n].Kind == contract.EvLag); n++ {
		if track.Stored(events[n]) {
			k--
		}
	}
	return n, true
}

// findOwn is find for the event of the stream's own run that c names.
func (c cursor) findOwn(events []contract.RunEvent) (int, bool) {
	if c.delta > 0 {
		for i, ev := range events {
			if len(ev.Subflow) == 0 && ev.Seq == c.seq && ev.Delta == c.delta {
				return i + 1, true
			}
		}
	}
	n := 0
	for i, ev := range events {
		// A lag notice's Seq names an event missed, or none.
		if len(ev.Subflow) == 0 && ev.Delta == 0 && ev.Kind != contract.EvLag && ev.Seq <= c.seq {
			n = i + 1
		}
	}
	return n, c.delta == 0
}

// holds reports whether a stream of the thread threadID whose client has
// had (its events up to c) and primer (see primer) stands inside its
// model call where c's mark says.
func (c cursor) holds(threadID string, had, primer []contract.RunEvent) bool {
	p := agui.NewProjector(threadID)
	for _, ev := range slices.Concat(had, primer) {
		p.Project(ev)
	}
	return p.Holds(*c.mark)
}

// committed counts the events of a thread's stream up to the newest
// committed event of its own run at or before c.seq.
func (c cursor) committed(events []contract.RunEvent) int {
	n, _ := cursor{seq: c.seq}.findOwn(events)
	return n
}

// primer returns what a client at c has of the model call it was in
// when the stream it resumes no longer holds that call's deltas (the
// thread was closed and opened again from the store): deltas cut from
// the call's stored reply, the first committed event in rest. parted is
// set when c's mark fingerprints each part: the deltas then hold each
// part as far as the stored reply goes on from the client's, and d names
// the parts it does not (see track.Mark.Primer).
func (c cursor) primer(rest []contract.RunEvent) (deltas []contract.RunEvent, d track.Differs, parted bool) {
	if c.mark == nil {
		return nil, d, false
	}
	for _, ev := range rest {
		switch {
		case len(ev.Subflow) > 0 || ev.Delta > 0:
			continue
		case ev.Kind == contract.EvTurnCompleted && ev.Turn != nil:
			if deltas, d, ok := c.mark.Primer(c.seq, *ev.Turn); ok {
				return deltas, d, true
			}
			return c.mark.Deltas(c.seq, *ev.Turn), d, false
		}
		return nil, d, false
	}
	return nil, d, false
}

// rejoining is where a client at a cursor stands in a thread's stream:
// it has the stream's first n events, then primer (see primer); held is
// set when, those projected, the stream stands where the client's mark
// says (agui.Projector.Rejoin).
type rejoining struct {
	n      int
	primer []contract.RunEvent
	held   bool
}

// rejoin places a client at c in the stream events of threadID.
func (c cursor) rejoin(threadID string, events []contract.RunEvent) rejoining {
	n, exact := c.find(events)
	var primer []contract.RunEvent
	var differs track.Differs
	parted := false
	if !exact {
		primer, differs, parted = c.primer(events[n:])
	}
	// A stored reply compared part by part is taken for what the
	// client's call became when each part goes on from the client's:
	// the runtime may have mended it before storing it, which a
	// whole-call compare would take for another call and send again
	// whole. A part that does not go on (the call made again said other
	// things, or the runtime rewrote them) leaves the client holding
	// text the session does not, which it must drop.
	held := c.mark == nil || (parted && !differs.Any()) || (!parted && c.holds(threadID, events[:n], primer))
	if !held {
		// The client's model call died with the process that streamed
		// it: the deltas here of the same numbers, or the stored reply,
		// are the call made again, all of which the client lacks, and
		// the client is told to drop what it has of the dead one.
		return rejoining{n: c.committed(events)}
	}
	return rejoining{n: n, primer: primer, held: true}
}

// resume streams what a client at lastID missed, then follows the run
// in flight, if any, to its end.
func (h *Handler) resume(w http.ResponseWriter, r *http.Request, threadID, lastID string) {
	lastID, next, err := parseChain(lastID)
	var at cursor
	if err == nil {
		at, err = parseCursor(lastID)
	}
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
	var returned <-chan struct{}
	if next != nil {
		returned = h.returnedOf(t)
	}
	// Read before the events: input applied in between is in them.
	queued := t.r.Snapshot().Queued
	events, end, err := t.history(ctx)
	switch {
	case err != nil:
		h.internalError(w, err, "wire: events of thread %q could not be read", threadID)
		return
	case len(events) == 0:
		// Not kept open here: another handler may store and drive it.
		h.letGo(t)
		httpError(w, http.StatusNotFound, "%v: %q has no events", ErrUnknownThread, threadID)
		return
	}
	s := h.newStreamer(w, r, t, ProtocolAGUI)
	s.park = h.opts.ClientAnswers
	// Replaying what the client has silently gives the projector the
	// state its stream had: the run in flight, message ids, the text
	// each open message holds, and the client's place in it.
	j := at.rejoin(threadID, events)
	n := j.n
	for _, ev := range events[:n] {
		s.silent(ev)
	}
	for _, ev := range j.primer {
		s.silent(ev)
	}
	if at.mark != nil {
		s.proj.Rejoin(at.seq, *at.mark, j.held, agui.Session{Had: events[:n], Later: events[n:], Queued: queued})
	}
	s.proj.Reconnected(at.reconnected(lastID, events, n))
	if next != nil && next.reached(events[:n]) {
		next = nil
	}
	if next != nil {
		s.announceChain(*next)
	}
	w.WriteHeader(http.StatusOK)
	id, running := s.inRun()
	s.follows, s.chained, s.returned = resumedFollowing(id, running, next), next != nil, returned
	if err := s.resumeRest(ctx, events[n:], end); err != nil && ctx.Err() == nil {
		h.opts.Logger.Warn("wire: resumed stream ended early", "thread", threadID, "err", err)
	}
}
