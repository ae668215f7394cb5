package wire

import "net/http"

// reposted answers a post whose every message (ids, the client's) the
// thread took before: a retry of a post whose answer the client never
// saw, a browser that submits again, a chat that sends its last message
// again. When the messages went to the thread's latest run, the client
// gets that run's stream from its start, followed on while the run is in
// flight: the outcome its first post had, not the same messages run a
// second time. Both protocols' clients take it as the answer to their
// post, where a 409 shows them an error. A message of an earlier run, or
// of a post whose run is still starting, is refused with 409 saying so.
func (h *Handler) reposted(w http.ResponseWriter, r *http.Request, proto Protocol, t *thread, ids []string) {
	snap := t.r.Snapshot()
	took, latest := sessionTook(snap, ids)
	if latest {
		h.replayRun(w, r, t, proto)
		return
	}
	id := firstID(ids)
	if took[id] {
		httpError(w, http.StatusConflict, "wire: thread %q ran message %q in a run before its latest, %q; a new message needs a new id", t.id, id, snap.RunID)
		return
	}
	w.Header().Set("Retry-After", "1")
	httpError(w, http.StatusConflict, "wire: thread %q is starting the run of message %q; post it again to get that run's stream", t.id, id)
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
