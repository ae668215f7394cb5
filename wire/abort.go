package wire

import (
	"context"
	"encoding/json"
	"fmt"
	"net/http"
	"net/url"
	"strings"

	"github.com/batonrt/baton/contract"
)

// Aborter is a Runner whose run in flight a client may stop (POST
// .../{thread}/abort): leaving a stream only detaches from the run, which
// goes on so that the client can come back to it. AgentRunner's runners
// are.
type Aborter interface {
	// Abort stops the run in flight, as conductor.Agent.Abort does; with
	// no run in flight it does nothing. With ctx done before the run
	// takes the abort up, nothing is aborted and the error matches
	// ctx's.
	Abort(ctx context.Context, mode contract.AbortMode) error
}

var _ Aborter = agentRunner{}

// abortSuffix ends the path of an abort request: {base}/{thread}/abort.
const abortSuffix = "/abort"

// abortRequest is an abort's optional body.
type abortRequest struct {
	// Mode is when the abort takes effect; empty means now.
	Mode contract.AbortMode `json:"mode"`
}

// abort stops the thread's run in flight. A run stopped now has ended
// when the answer, 204, is sent, and its streams end with the protocol's
// abort events; a run told to stop after its model's reply or its
// running tools gets 202, and ends then. A thread with no run in flight
// gets 409, so that a client tells a stopped run from one that had
// already ended with its own result.
func (h *Handler) abort(w http.ResponseWriter, r *http.Request) {
	threadID, body, ok := h.threadPost(w, r, abortSuffix)
	if !ok {
		return
	}
	var in abortRequest
	if len(strings.TrimSpace(string(body))) > 0 {
		if err := json.Unmarshal(body, &in); err != nil {
			httpError(w, http.StatusBadRequest, "wire: abort body: %v", err)
			return
		}
	}
	switch in.Mode {
	case "":
		in.Mode = contract.AbortNow
	case contract.AbortNow, contract.AbortAfterReply, contract.AbortAfterTools:
	default:
		httpError(w, http.StatusBadRequest, "wire: abort mode %q is none of %q, %q, %q", in.Mode, contract.AbortNow, contract.AbortAfterReply, contract.AbortAfterTools)
		return
	}
	t, ab, ok := runInFlight[Aborter](h, w, r, threadID, "aborted")
	if !ok {
		return
	}
	defer h.release(t)
	if err := ab.Abort(r.Context(), in.Mode); err != nil {
		h.closeIfFailed(t)
		h.internalError(w, err, "wire: the run of thread %q could not be aborted", threadID)
		return
	}
	if t.r.Snapshot().Phase.InFlight() {
		w.WriteHeader(http.StatusAccepted)
		return
	}
	w.WriteHeader(http.StatusNoContent)
}

// isThreadRoute reports whether r is a method request to the route of
// a thread that suffix ends: {base}/{thread}{suffix}.
func isThreadRoute(r *http.Request, method, suffix string) bool {
	return r.Method == method && strings.HasSuffix(r.URL.EscapedPath(), suffix)
}

// threadPost reads the thread id of a POST to {base}/{thread}{suffix}
// and its body, or answers why it cannot. A path that names no thread
// is refused before the body is read, and the connection let go: else
// the server waits, with no deadline, for a body the client may never
// send.
func (h *Handler) threadPost(w http.ResponseWriter, r *http.Request, suffix string) (string, []byte, bool) {
	threadID, err := threadIDFromPath(r.URL, suffix)
	if err == nil {
		err = h.checkThreadID(threadID)
	}
	if err != nil {
		refuse(w, http.StatusBadRequest, "%v", err)
		return "", nil, false
	}
	body, ok := h.readBody(w, r)
	return threadID, body, ok
}

// runInFlight acquires the thread of a request that acts on the thread's
// run in flight, and returns the thread, which the caller releases, and
// its runner as an R. Otherwise it answers: 501 for a runner that is not
// an R (which cannot be what), 409 when the thread has no run in flight.
func runInFlight[R any](h *Handler, w http.ResponseWriter, r *http.Request, threadID, what string) (*thread, R, bool) {
	var none R
	t, ok := h.useThread(w, r, threadID)
	if !ok {
		return nil, none, false
	}
	rr, ok := t.r.(R)
	switch {
	case !ok:
		httpError(w, http.StatusNotImplemented, "wire: thread %q cannot be %s", threadID, what)
	case !t.r.Snapshot().Phase.InFlight():
		httpError(w, http.StatusConflict, "wire: thread %q has no run in flight", threadID)
	default:
		return t, rr, true
	}
	h.release(t)
	return nil, none, false
}

// threadIDFromPath reads the thread id of a path {base}/{id}{suffix}.
func threadIDFromPath(u *url.URL, suffix string) (string, error) {
	p, ok := strings.CutSuffix(u.EscapedPath(), suffix)
	if !ok {
		return "", fmt.Errorf("wire: the path must end in /{thread id}%s, not %q", suffix, u.Path)
	}
	seg := p[strings.LastIndexByte(p, '/')+1:]
	id, err := url.PathUnescape(seg)
	if err != nil || id == "" {
		return "", fmt.Errorf("wire: bad thread id %q in %q", seg, u.Path)
	}
	return id, nil
}
