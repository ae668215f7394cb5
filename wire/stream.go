package wire

import (
	"context"
	"net/http"
	"slices"
	"strconv"
	"strings"
	"time"

	"github.com/batonrt/baton/contract"
	"github.com/batonrt/baton/internal/redact"
	"github.com/batonrt/baton/wire/agui"
	"github.com/batonrt/baton/wire/aisdk"
	"github.com/batonrt/baton/wire/internal/sse"
	"github.com/batonrt/baton/wire/internal/track"
)

// defaultWriteTimeout is HandlerOptions.WriteTimeout's default.
const defaultWriteTimeout = 30 * time.Second

// streamer writes one response from its thread's event log: it projects,
// encodes and deduplicates (a resumed stream sees some events both from
// the store and from the log). It writes exactly one of: AG-UI over SSE,
// the AI SDK's UI message stream over SSE, or baton's NDJSON events.
type streamer struct {
	t *thread
	// ctx is the request's: reads of the store for the stream end with it.
	ctx context.Context
	// out is the response, each write bounded by a deadline.
	out  *deadlineWriter
	proj *agui.Projector
	ui   *aisdk.Projector
	sse  *sse.Writer
	nd   *ndjsonWriter
	// header is the response's, for what a stream says in it before it
	// writes (see announceChain).
	header http.Header
	// last is the newest committed Seq the stream has; started is set
	// once last means something.
	last    uint64
	started bool
	// follows is the run the stream follows.
	follows following
	// chained is set on a stream that follows more than one run (see
	// decidedFirst): its ids say what it follows next (see chainID).
	chained bool
	// returned, on a resumed chained stream, is closed once no run the
	// thread has claimed is still to return: a chain's next run that has
	// not started by then never will (see resumeRest).
	returned <-chan struct{}
	ended    bool
	pos      int // the next position in the thread's log
	// park ends the stream where its run waits for the client (see
	// HandlerOptions.ClientAnswers).
	park bool
	// answered are the calls this request answered, true for those whose
	// results the client has already (questions: the result is its
	// answer), false for approvals.
	answered map[string]bool
	// after are delegated questions and approval requests an answer's
	// stream shows once the delegated calls it answered have their
	// results (results), or the run waits on nothing but people
	// (see showAfter).
	after   []contract.RunEvent
	results map[string]bool
	// asked are the delegates' questions and approval requests the
	// stream showed or its client had (see ask).
	asked map[string]bool
	// delegated is the newest stored event of each delegated run's
	// session that the stream showed or its client had: a stream that
	// starts from the store (see thread.history) may find the newest
	// ones again in its log.
	delegated map[string]uint64
	// open are the delegated runs, by session, the stream saw begin and
	// not end, with their subflow paths (see fill).
	open map[string][]string
}

// newStreamer is newStreamer with the handler's write timeout.
func (h *Handler) newStreamer(w http.ResponseWriter, req *http.Request, t *thread, proto Protocol) *streamer {
	s := newStreamer(w, req, t, proto)
	s.out.timeout = h.opts.WriteTimeout
	return s
}

func newStreamer(w http.ResponseWriter, req *http.Request, t *thread, proto Protocol) *streamer {
	out := newDeadlineWriter(w, defaultWriteTimeout)
	s := &streamer{t: t, ctx: req.Context(), out: out, proj: agui.NewProjector(t.id), header: w.Header()}
	h := w.Header()
	h.Set("Cache-Control", "no-cache")
	h.Set("X-Accel-Buffering", "no")
	switch {
	case strings.Contains(req.Header.Get("Accept"), "application/x-ndjson"):
		h.Set("Content-Type", "application/x-ndjson")
		s.nd = &ndjsonWriter{w: out}
	case proto == ProtocolAISDK:
		h.Set("Content-Type", "text/event-stream")
		h.Set(aisdk.StreamHeader, aisdk.StreamVersion)
		s.ui = aisdk.NewProjector(t.id)
		s.sse = sse.New(out)
	default:
		h.Set("Content-Type", "text/event-stream")
		s.sse = sse.New(out)
	}
	return s
}

// silent projects an event the client already has, for the state it
// leaves in the projector (run in flight, message ids, streamed text).
func (s *streamer) silent(ev contract.RunEvent) {
	if ev.Delta == 0 && ev.Kind != contract.EvLag && len(ev.Subflow) == 0 {
		s.last, s.started = max(s.last, ev.Seq), true
	}
	s.shownDelegated(ev)
	s.trackDelegated(ev)
	if s.ui != nil {
		s.ui.Project(ev)
		return
	}
	s.proj.Project(ev)
}

// hidden projects an event of a run before the stream's that is not its
// client's (see viaStarting): silently, and such a run's start does not
// take the message the stream's own run goes on in (see
// aisdk.Projector.Chain).
func (s *streamer) hidden(ev contract.RunEvent) {
	chained := s.ui != nil && s.ui.Chained()
	s.silent(ev)
	if chained && !s.ui.Chained() {
		s.ui.Chain()
	}
}

func (s *streamer) inRun() (string, bool) {
	if s.ui != nil {
		return s.ui.InRun()
	}
	return s.proj.InRun()
}

// done ends a stream whose run ended: the UI message stream closes with
// [DONE]; the others need nothing.
func (s *streamer) done() error {
	if s.ui == nil {
		return nil
	}
	return s.sse.WriteEvent("", "", []byte("[DONE]"))
}

// isSubflowAsk reports whether ev is a delegated run's question or
// approval request.
func isSubflowAsk(ev contract.RunEvent) bool {
	return len(ev.Subflow) > 0 && ev.Call != nil && (ev.Kind == contract.EvQuestionAsked || ev.Kind == contract.EvApprovalRequested)
}

// ask marks a delegated run's question or approval request as shown, and
// reports whether it was already: the history a stream starts from may
// hold one its log, filled by its own subscriber, brings again after.
// The mark lasts until the call's result (settled): call ids are unique
// within a turn only, so a later turn may ask again under the same id.
func (s *streamer) ask(ev contract.RunEvent) (shown bool) {
	key := string(ev.Kind) + " " + track.SubflowCallID(ev)
	if s.asked[key] {
		return true
	}
	if s.asked == nil {
		s.asked = map[string]bool{}
	}
	s.asked[key] = true
	return false
}

// settled forgets the marks of a delegated run's call that has its
// result: whatever asks under its id after is a new call's.
func (s *streamer) settled(ev contract.RunEvent) {
	if len(s.asked) == 0 || len(ev.Subflow) == 0 || ev.Call == nil || ev.Kind != contract.EvToolResult {
		return
	}
	id := track.SubflowCallID(ev)
	delete(s.asked, string(contract.EvQuestionAsked)+" "+id)
	delete(s.asked, string(contract.EvApprovalRequested)+" "+id)
}

// emit writes one baton event unless the stream already has it.
func (s *streamer) emit(ev contract.RunEvent) error {
	switch {
	case ev.Kind == contract.EvSignalRejected:
		return nil
	case s.follows.hides(ev):
		// A run before the stream's, which is not its client's (see
		// viaStarting): its end is not this stream's.
		s.hidden(ev)
		return nil
	case isSubflowAsk(ev) && s.ask(ev):
		if s.nd == nil && s.ui == nil {
			// Counted, though not shown again, as a resumed stream
			// counts it when it finds where its client stands.
			s.proj.Project(ev)
		}
		return nil
	case len(ev.Subflow) > 0 && s.shownDelegated(ev) && !isSubflowAsk(ev):
		// A question or a request shown again was let through by ask.
		return nil
	case len(ev.Subflow) > 0:
		// A delegated run's events are numbered in their own run: they
		// neither advance the stream's position nor are deduplicated by it.
		s.settled(ev)
		if ev.Kind == contract.EvToolResult && ev.Call != nil {
			delete(s.results, track.SubflowCallID(ev))
		}
	case ev.Kind == contract.EvLag:
	case ev.Delta > 0:
		// Streamed after the newest committed event, numbered with it.
		if ev.Seq < s.last {
			return nil
		}
	default:
		if ev.Seq <= s.last && s.started {
			return nil
		}
		s.last, s.started = ev.Seq, true
		if s.follows.passed(ev) {
			s.ended = true
		}
	}
	s.trackDelegated(ev)
	var err error
	switch {
	case s.nd != nil:
		err = s.nd.writeEvent(ev)
	case s.ui != nil:
		err = s.writeUI(s.ui.Project(ev))
	case ev.Kind == contract.EvToolResult && len(ev.Subflow) == 0 && ev.Call != nil && s.answered[ev.Call.ID],
		ev.Kind == contract.EvQuestionAnswered && len(ev.Subflow) > 0 && s.answered[track.SubflowCallID(ev)]:
		// The client sent this result itself, as a tool message.
		s.proj.Project(ev)
	default:
		out := s.proj.Project(ev)
		if s.proj.Diverged() {
			out = s.corrected(out, ev.Seq)
		}
		err = s.writeAGUI(out)
	}
	if err == nil && s.park && !s.ended && isSubflowAsk(ev) {
		// A delegated run's question or approval request waits for the
		// client as the run's own would.
		if ev.Kind == contract.EvApprovalRequested {
			return s.pause(contract.PhaseAwaitingApproval)
		}
		return s.pause(contract.PhaseAwaitingHuman)
	}
	if err != nil || ev.Delta > 0 || len(ev.Subflow) > 0 || s.ended {
		return err
	}
	if phase, ok := s.waitsForClient(ev.Seq); ok {
		return s.pause(phase)
	}
	return nil
}

// waitsForClient reports whether the stream's run, as of the committed
// event seq, waits for the client to answer a question or an approval.
func (s *streamer) waitsForClient(seq uint64) (contract.Phase, bool) {
	if !s.park || s.follows.run == "" {
		return "", false
	}
	snap := s.t.r.Snapshot()
	if snap.RunID != s.follows.run || snap.Seq != seq {
		return "", false
	}
	switch snap.Phase {
	case contract.PhaseAwaitingHuman, contract.PhaseAwaitingApproval:
		return snap.Phase, true
	}
	return "", false
}

// pause ends the stream of a run that waits for the client, in the
// protocol's terms; the client's answer opens the next stream.
func (s *streamer) pause(phase contract.Phase) error {
	s.ended = true
	switch {
	case s.nd != nil:
		return nil
	case s.ui != nil:
		return s.writeUI(s.ui.Pause(phase))
	}
	return s.writeAGUI(s.proj.Pause(phase))
}

func (s *streamer) writeUI(chunks []aisdk.Chunk) error {
	s.correctUI(chunks)
	for _, c := range chunks {
		if err := s.sse.WriteJSON("", c); err != nil {
			return err
		}
	}
	return nil
}

// writeAGUI writes the frames of one baton event in one write: only the
// last carries the event's SSE id, and a client cut between them would
// hold frames past its id, which its resumed stream sends again (text
// shown twice).
func (s *streamer) writeAGUI(events []agui.Event) error {
	if s.sse == nil {
		return nil
	}
	return s.sse.Batch(func() error {
		for _, a := range events {
			if err := s.sse.WriteJSON(s.chainID(a.ID), a); err != nil {
				return err
			}
		}
		return nil
	})
}

// carryOn streams on the run a client already follows and has just
// answered or steered: the events it has (had, up to the log's position
// end) go through the projector silently, the protocol reopens the
// stream (as a new assistant message for the AI SDK when steered), and
// the run follows live to its end or its next pause. steered is the run
// that took the client's message, "" for an answer.
func (s *streamer) carryOn(ctx context.Context, had []contract.RunEvent, end int, steered string) error {
	s.had(had)
	// A run the events end is not the one followed: the thread's log may
	// lag behind the run that took the message, whose start then comes
	// after end and names the stream's run (see emit).
	id, running := s.inRun()
	switch {
	case running && steered != "" && id != steered:
		// The log lags further: it still has in flight the run the
		// message came for, which ended and left it to the next. What
		// the log brings of that run is for its own streams; this one
		// opens with the next run's start.
		s.follows = following{run: steered, via: viaStarting}
	case running:
		s.follows = following{run: id}
	}
	waiting := s.stillWaiting(ctx, waitingAsks(had, s.answered))
	err := s.reopen(steered)
	if err == nil && s.park && len(waiting) > 0 {
		// Delegated runs still wait on asks this request did not answer:
		// a stream stops at the first it shows, so the client may never
		// have been shown the others, and nothing else comes until they
		// are answered. A steer does not answer them either: it waits at
		// the parent for the delegate call, which waits on its child. They are shown once what this request answered
		// has come (see showAfter).
		s.after, s.results = waiting, map[string]bool{}
		for id := range s.answered {
			if strings.Contains(id, "/") {
				s.results[id] = true
			}
		}
	}
	if err == nil {
		s.pos = end
		err = s.follow(ctx, nil)
	}
	if err == nil {
		err = s.done()
	}
	return err
}

// had goes silently through the events the stream's client has.
func (s *streamer) had(events []contract.RunEvent) {
	for _, ev := range events {
		s.silent(ev)
		if isSubflowAsk(ev) {
			s.ask(ev)
		}
		s.settled(ev)
	}
}

// reopen writes what the protocol needs first on a stream that carries
// on the run in flight of the events the stream went through: a new
// message of it when the client sent one of its own since (steered is
// then the run that took it), else the rest of the message it holds.
func (s *streamer) reopen(steered string) error {
	switch {
	case s.nd != nil, s.follows.via == viaStarting:
		return nil
	case s.ui != nil && steered != "":
		return s.writeUI(s.ui.Continue(s.follows.run + "-" + strconv.FormatUint(s.last, 10)))
	case s.ui != nil:
		return s.writeUI(s.ui.Resume())
	case steered != "":
		return s.writeAGUI(s.proj.Continue())
	}
	return s.writeAGUI(s.proj.Resume())
}

// showAfter shows the asks an answer's stream keeps for after (see
// carryOn) and stops the stream there, once the delegated calls the
// request answered have their results in the stream, or once the run
// waits on nothing but people (a call approved may wait behind one still
// asked), when the runner can tell: the events published until then are
// shown first. It reports whether it did.
func (s *streamer) showAfter(ctx context.Context) (bool, error) {
	// A runner that tells is asked even once the answered calls have
	// their results: what they led to (a delegate's reply, its call's
	// result) comes after them, and a stream that stopped first would
	// leave it to none.
	pw, tells := s.t.r.(PeopleWaiter)
	if tells || len(s.results) > 0 {
		if !tells {
			return false, nil
		}
		if waits, err := pw.WaitsOnlyForPeople(ctx); err != nil || !waits {
			return false, err
		}
		if f, ok := s.t.r.(interface{ Flush(context.Context) error }); ok {
			if err := f.Flush(ctx); err != nil {
				return false, err
			}
		}
		events, next, _, _, _ := s.t.log.read(s.pos)
		for _, ev := range events {
			if err := s.emit(ev); err != nil || s.ended {
				return true, err
			}
		}
		s.pos = next
	}
	after := s.stillWaiting(ctx, s.after)
	s.after = nil
	if len(after) == 0 {
		return false, nil
	}
	return true, s.reshow(after)
}

// reshow shows the delegated runs' questions and approval requests asks,
// though the stream already went through them, and stops the stream
// there.
func (s *streamer) reshow(asks []contract.RunEvent) error {
	park := s.park
	defer func() { s.park = park }()
	s.park = false
	phase := contract.PhaseAwaitingHuman
	for _, ev := range asks {
		delete(s.asked, string(ev.Kind)+" "+track.SubflowCallID(ev))
		if err := s.emit(ev); err != nil {
			return err
		}
		if ev.Kind == contract.EvApprovalRequested {
			phase = contract.PhaseAwaitingApproval
		}
	}
	return s.pause(phase)
}

// stillWaiting keeps of asks those the thread's delegated runs still
// wait on, when its runner tells (a lagging log may lack the event that
// answered one).
func (s *streamer) stillWaiting(ctx context.Context, asks []contract.RunEvent) []contract.RunEvent {
	if len(asks) == 0 {
		return nil
	}
	open, err := s.t.openSubflowAsks(ctx)
	if _, ok := s.t.r.(SubflowAsker); !ok || err != nil {
		return asks
	}
	waits := map[string]bool{}
	for _, ev := range open {
		waits[string(ev.Kind)+" "+track.SubflowCallID(ev)] = true
	}
	return slices.DeleteFunc(asks, func(ev contract.RunEvent) bool {
		return !waits[string(ev.Kind)+" "+track.SubflowCallID(ev)]
	})
}

// waitingAsks are the delegated runs' questions and approval requests in
// events that nothing after them answers, decides or ends, less those
// answered (by the id a client answers them under).
func waitingAsks(events []contract.RunEvent, answered map[string]bool) []contract.RunEvent {
	var out []contract.RunEvent
	for _, ev := range events {
		if len(ev.Subflow) == 0 || ev.Call == nil {
			continue
		}
		id := track.SubflowCallID(ev)
		switch ev.Kind {
		case contract.EvQuestionAsked, contract.EvApprovalRequested:
			out = append(slices.DeleteFunc(out, func(a contract.RunEvent) bool { return track.SubflowCallID(a) == id }), ev)
		case contract.EvQuestionAnswered, contract.EvApprovalResolved, contract.EvToolResult:
			out = slices.DeleteFunc(out, func(a contract.RunEvent) bool { return track.SubflowCallID(a) == id })
		}
	}
	return slices.DeleteFunc(out, func(a contract.RunEvent) bool {
		_, ok := answered[track.SubflowCallID(a)]
		return ok
	})
}

// fill writes the committed events the stream missed, from the store,
// with what its delegated runs did meanwhile, up to its run's end.
func (s *streamer) fill(ctx context.Context) error {
	events, err := s.t.r.EventsSince(ctx, s.last)
	if err == nil {
		events, err = s.withDelegated(ctx, events)
	}
	if err != nil {
		return err
	}
	for _, ev := range events {
		if err := s.emit(ev); err != nil || s.ended {
			return err
		}
	}
	return nil
}

// follow writes the thread's events from the stream's log position on
// until its run ends or the client leaves. done, when not nil, closes
// when the run's Submit returned: if nothing was committed by then, the
// run never started and no more comes.
func (s *streamer) follow(ctx context.Context, done <-chan struct{}) error {
	for !s.ended {
		events, next, more, lost, closed := s.t.log.read(s.pos)
		if lost {
			// The log moved on past this slow stream: the store has
			// everything committed, and the log what came since.
			if err := s.fill(ctx); err != nil || s.ended {
				return err
			}
			events, next, more, _, closed = s.t.log.read(s.t.log.start0())
		}
		for _, ev := range events {
			if err := s.emit(ev); err != nil {
				return err
			}
			if s.ended {
				return nil
			}
		}
		s.pos = next
		if s.after != nil {
			if shown, err := s.showAfter(ctx); shown || err != nil {
				return err
			}
		}
		if closed {
			s.dropIfLeft()
			// The thread closed; its store still has the run's end, unless
			// the store's failure closed it.
			err := s.fill(ctx)
			if err == nil && !s.ended {
				err = s.faultIfFailed()
			}
			s.ended = true
			return err
		}
		select {
		case <-more:
		case <-done:
			done = nil
			if s.t.r.Snapshot().Seq <= s.last && s.t.log.end() == s.pos {
				s.dropIfLeft()
				return s.faultIfFailed()
			}
		case <-ctx.Done():
			return ctx.Err()
		}
	}
	return nil
}

// faultIfFailed ends, with the protocol's error, the stream of a run
// that ended without an end of its own: its runner refuses all work
// (FailedRunner), the store having refused the run's records or another
// process having taken its session over, so no run_faulted was published
// and the client could not tell the failure from a normal end. The error
// is redacted as a run's fault is. The state the stream ends with says
// the phase the store still has the run in, not faulted: no fault was
// stored, and whoever resumes the run goes on from that phase.
func (s *streamer) faultIfFailed() error {
	fr, ok := s.t.r.(FailedRunner)
	if !ok || s.follows.run == "" {
		return nil
	}
	failed := fr.Failed()
	if failed == nil {
		return nil
	}
	kind, msg := contract.KindStore, failed.Error()
	if re, ok := contract.AsRunError(failed); ok {
		// Said once: the protocols name the kind beside the message.
		kind, msg = re.Kind, strings.TrimPrefix(msg, "baton: "+string(re.Kind)+": ")
	}
	msg = redact.Error(msg)
	ev := contract.RunEvent{SessionID: s.t.id, RunID: s.follows.run, Kind: contract.EvRunFaulted, Text: msg, Err: &contract.RunError{Kind: kind, Message: msg}}
	s.ended = true
	// The run's end was never stored: the store has it in flight, in the
	// phase of its last durable step, for whoever resumes it.
	phase := s.t.r.Snapshot().Phase
	if !phase.InFlight() {
		phase = contract.PhaseFaulted
	}
	switch {
	case s.nd != nil:
		return s.nd.writeEvent(ev)
	case s.ui != nil:
		return s.writeUI(s.ui.Stopped(ev, phase))
	}
	events := s.proj.Stopped(ev, phase)
	for i := range events {
		// No cursor: nothing stored follows the run's last event, and a
		// client resuming from one would be taken back to the start.
		events[i].ID = ""
	}
	return s.writeAGUI(events)
}
