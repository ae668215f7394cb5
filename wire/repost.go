package wire

import (
	"net/http"
	"slices"

	"github.com/batonrt/baton/contract"
)

// reposted answers a post whose every message (turns, under the client's
// ids) the thread took before: a retry of a post whose answer the client never
// saw, a browser that submits again, a chat that sends its last message
// again. When the messages went to the thread's latest run, the client
// gets that run's stream from its start, followed on while the run is in
// flight: the outcome its first post had, not the same messages run a
// second time. Both protocols' clients take it as the answer to their
// post, where a 409 shows them an error. (A faulted run's messages are
// not taken: they run again, see takeNew.) A post whose twin is still
// starting the run waits for it. A message of an earlier run is refused
// with 409 naming it and the latest run.
func (h *Handler) reposted(w http.ResponseWriter, r *http.Request, proto Protocol, t *thread, ids []string, turns []contract.Turn) {
	ctx := r.Context()
	id := firstID(ids)
	for {
		// Read before looking: whatever comes after wakes the wait.
		_, _, more, _, closed := t.log.read(t.log.end())
		given := h.whenUntaken(t)
		snap := t.r.Snapshot()
		took := sessionTook(snap, ids, turns)
		latest, ok := took[id]
		// A faulted run's messages another post is running again are
		// that post's new run's.
		pending := h.taking(t, ids)
		switch {
		case inLatest(took) && !(pending && snap.Phase == contract.PhaseFaulted):
			// The latest run, which the log may not have started yet.
			h.replayRun(w, r, t, proto, following{run: snap.RunID})
			return
		case ok && !latest:
			httpError(w, http.StatusConflict, "wire: thread %q ran message %q in a run before its latest, %q; a new message needs a new id", t.id, id, snap.RunID)
			return
		case closed || !pending:
			// The post that took them used none: the client may post again.
			w.Header().Set("Retry-After", "1")
			httpError(w, http.StatusConflict, "wire: thread %q did not start the run of message %q; post it again", t.id, id)
			return
		}
		select {
		case <-more:
		case <-given:
		case <-ctx.Done():
			return
		}
	}
}

// taking reports whether a post to t is starting a run of ids or
// steering with them.
func (h *Handler) taking(t *thread, ids []string) bool {
	h.mu.Lock()
	defer h.mu.Unlock()
	return slices.ContainsFunc(ids, func(id string) bool {
		_, ok := t.taken[id]
		return ok
	})
}

// firstID is the first id of ids that is not empty.
func firstID(ids []string) string {
	for _, id := range ids {
		if id != "" {
			return id
		}
	}
	return ""
}
