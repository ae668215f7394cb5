package wire

import (
	"encoding/json"
	"errors"
	"net/http"
	"strings"

	"github.com/batonrt/baton/conductor"
	"github.com/batonrt/baton/contract"
)

// steerSuffix ends the path of a steer request: {base}/{thread}/steer.
const steerSuffix = "/steer"

// steerRequest is a steer's body.
type steerRequest struct {
	// Text is the user's message to the run.
	Text string `json:"text"`
}

// steerRun hands a user's message to the thread's run in flight as
// steering, for a client that keeps following the run's stream it has
// open: that stream shows where the run takes the message (a
// steering_applied event) and goes on with the steered run. Unlike a
// message posted to a protocol's endpoint, it never starts a run and
// streams nothing. It answers 202 once the run has taken the message, to
// deliver at its next model call; 409 when the thread has no run in
// flight (post the message as a new one) or the run refused it; 404 for
// a thread the factory does not know; 501 for a runner that cannot be
// steered.
func (h *Handler) steerRun(w http.ResponseWriter, r *http.Request) {
	threadID, body, ok := h.threadPost(w, r, steerSuffix)
	if !ok {
		return
	}
	var in steerRequest
	if err := json.Unmarshal(body, &in); err != nil {
		httpError(w, http.StatusBadRequest, "wire: steer body: %v", err)
		return
	}
	if strings.TrimSpace(in.Text) == "" {
		httpError(w, http.StatusBadRequest, "wire: steer text is empty")
		return
	}
	t, sr, ok := runInFlight[SteerRunner](h, w, r, threadID, "steered")
	if !ok {
		return
	}
	defer h.release(t)
	err := sr.Steer(r.Context(), []contract.Turn{{Role: contract.RoleUser, Blocks: []contract.Block{contract.TextBlock(in.Text)}}})
	switch {
	case errors.Is(err, conductor.ErrNoRun) || errors.Is(err, conductor.ErrClosed):
		httpError(w, http.StatusConflict, "wire: thread %q has no run in flight", threadID)
	case err != nil:
		h.closeIfFailed(t)
		code, msg := steerFailure(err)
		httpError(w, code, "wire: steer thread %q: %s", threadID, msg)
	default:
		w.WriteHeader(http.StatusAccepted)
	}
}
