package wire

import (
	"context"
	"fmt"
	"net/http"
	"net/url"
	"slices"
	"strings"

	"github.com/batonrt/baton/contract"
	"github.com/batonrt/baton/wire/aisdk"
	"github.com/batonrt/baton/wire/internal/track"
)

// postChat starts a run from an AI SDK chat request.
func (h *Handler) postChat(w http.ResponseWriter, r *http.Request) {
	body, ok := h.readBody(w, r)
	if !ok {
		return
	}
	in, err := aisdk.DecodeInput(body)
	if err != nil {
		httpError(w, http.StatusBadRequest, "%v", err)
		return
	}
	var answers []clientAnswer
	for _, a := range in.Answers {
		answers = append(answers, clientAnswer{callID: a.CallID, text: a.Output, input: a.Input})
	}
	if len(in.Turns) == 0 {
		h.answer(w, r, ProtocolAISDK, in.ChatID, answers)
		return
	}
	h.run(w, r, ProtocolAISDK, in.ChatID, "", in.Turns, in.TurnIDs, answers)
}

// resumeChat answers the AI SDK's resume request, GET .../{id}/stream:
// the thread's run in flight, replayed from its start (the transport
// expects a replay), then followed live; 204 when the thread has no run
// in flight, which the transport reads as nothing to resume.
func (h *Handler) resumeChat(w http.ResponseWriter, r *http.Request) {
	threadID, err := chatIDFromPath(r.URL)
	var n threadName
	if err == nil {
		n, err = h.threadName(r, threadID)
	}
	if err != nil {
		httpError(w, http.StatusBadRequest, "%v", err)
		return
	}
	t, answered, code, err := h.reach(w, r, n)
	if answered {
		return
	}
	switch {
	case code == http.StatusNotFound:
		// An unknown thread has no run to resume.
		w.WriteHeader(http.StatusNoContent)
		return
	case err != nil:
		// Not 204: the client would take it for a thread with no run.
		h.threadError(w, threadID, code, err)
		return
	}
	defer h.release(t)
	run, ok := h.awaitClaimedRun(r.Context(), t)
	if !ok {
		w.WriteHeader(http.StatusNoContent)
		return
	}
	h.replayRun(w, r, t, ProtocolAISDK, run)
}

// awaitClaimedRun returns the run a resume request is to replay, and
// whether t has one: its run in flight, or the run a post has claimed,
// which is waited for, until ctx ends, when it has not started yet (its
// runner does work of its own first, or it is a chained stream's next
// run): the client that asks is the one whose message it runs, and a
// 204 would leave it without the reply. The claimed run is waited for
// in the thread's log, which the replay reads: a snapshot may show the
// run before the log has its start.
func (h *Handler) awaitClaimedRun(ctx context.Context, t *thread) (following, bool) {
	h.mu.Lock()
	running, after, returned := t.running, t.claimedAfter, t.returned
	h.mu.Unlock()
	snap := t.r.Snapshot()
	switch {
	case snap.Phase.InFlight():
		return following{run: snap.RunID}, true
	case !running || snap.RunID != after:
		return following{}, false
	}
	// Every run that starts past seq started after the claim.
	seq := snap.Seq
	claimed := following{after: seq}
	pos := t.log.start0()
	for {
		events, next, more, lost, closed := t.log.read(pos)
		if lost {
			pos = t.log.start0()
			continue
		}
		if slices.ContainsFunc(events, claimed.starts) {
			return claimed, true
		}
		if closed {
			return following{}, false
		}
		pos = next
		select {
		case <-more:
		case <-returned:
			// The claimed run's Submit returned: unless it committed
			// anything, it never started, and its start is not to come.
			returned = nil
			if t.r.Snapshot().Seq == seq {
				return following{}, false
			}
		case <-ctx.Done():
			return following{}, false
		}
	}
}

// replayRun streams the last of t's runs that run names (see
// following.starts) from its start, then follows it while it is in
// flight: what the AI SDK's resume request expects, and what a client
// that posted again what started the run gets. The run's start is
// waited for, until the request's context ends, when the thread's log
// lags behind the store that has it: the last run the log holds then
// has ended, and is not the client's.
func (h *Handler) replayRun(w http.ResponseWriter, r *http.Request, t *thread, proto Protocol, run following) {
	ctx := r.Context()
	var events []contract.RunEvent
	var end, start int
	for {
		// Read before the history: a start that comes after wakes the wait.
		_, _, more, _, closed := t.log.read(t.log.end())
		var err error
		events, end, err = t.history(ctx)
		if err != nil {
			h.internalError(w, err, "wire: events of thread %q could not be read", t.id)
			return
		}
		start = -1
		last := 0
		for i, ev := range events {
			if run.starts(ev) {
				start = i
			}
			if (following{}).starts(ev) {
				last = i
			}
		}
		if start < 0 && closed {
			// The thread closed: no more comes, and its last run is shown.
			start = last
		}
		if start >= 0 {
			break
		}
		select {
		case <-more:
		case <-ctx.Done():
			return
		}
	}
	s := h.newStreamer(w, r, t, proto)
	s.park = h.opts.ClientAnswers
	w.WriteHeader(http.StatusOK)
	// The earlier runs, projected silently, leave the projector's
	// sequence where the client's original stream had it, so part ids
	// match.
	for _, ev := range events[:start] {
		s.silent(ev)
	}
	err := s.resumeRest(ctx, events[start:], end)
	if err == nil {
		err = s.done()
	}
	if err != nil && ctx.Err() == nil {
		h.opts.Logger.Warn("wire: replayed run's stream ended early", "thread", t.id, "err", err)
	}
}

// resumeRest writes the events a resumed client lacks, then follows the
// log from end while the stream's run is in flight.
func (s *streamer) resumeRest(ctx context.Context, rest []contract.RunEvent, end int) error {
	if s.nd == nil && s.ui == nil {
		if err := s.writeAGUI(s.proj.Resume()); err != nil {
			return err
		}
	}
	for i, ev := range rest {
		// A delegated run's question or approval request that rest
		// answers after is shown, but the stream does not stop there: the
		// run no longer waits on it.
		park := s.park
		if isSubflowAsk(ev) && answeredIn(rest[i+1:], ev) {
			s.park = false
		}
		err := s.emit(ev)
		s.park = park
		if err != nil || s.ended {
			return err
		}
	}
	_, running := s.inRun()
	// A chained stream whose client had its first run's end goes on
	// with the chain's next run, which may not have started yet.
	next := s.chained && s.follows.via == viaStarting
	if !running && !next || s.ended {
		return nil
	}
	if phase, ok := s.waitsForClient(s.last); ok && running {
		return s.pause(phase)
	}
	s.pos = end
	return s.follow(ctx, s.returned)
}

// chatIDFromPath reads the chat id of a resume request's path, which the
// transport builds as api + "/" + encodeURIComponent(id) + "/stream".
func chatIDFromPath(u *url.URL) (string, error) {
	p, ok := strings.CutSuffix(u.EscapedPath(), "/stream")
	if !ok {
		return "", fmt.Errorf("wire: an ai-sdk GET must end in /{chat id}/stream, not %q", u.Path)
	}
	seg := p[strings.LastIndexByte(p, '/')+1:]
	id, err := url.PathUnescape(seg)
	if err != nil || id == "" {
		return "", fmt.Errorf("wire: bad chat id %q in %q", seg, u.Path)
	}
	return id, nil
}

// answeredIn reports whether events hold the answer, decision or result
// of the delegated run's call that ask asked about.
func answeredIn(events []contract.RunEvent, ask contract.RunEvent) bool {
	id := track.SubflowCallID(ask)
	for _, ev := range events {
		if len(ev.Subflow) == 0 || ev.Call == nil {
			continue
		}
		switch ev.Kind {
		case contract.EvQuestionAnswered, contract.EvApprovalResolved, contract.EvToolResult:
			if track.SubflowCallID(ev) == id {
				return true
			}
		}
	}
	return false
}
