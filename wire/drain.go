package wire

import (
	"context"
	"errors"
	"net/http"
	"time"
)

// errDraining refuses new work while the handler drains.
var errDraining = errors.New("wire: the server is shutting down; try again later")

// drainPoll is how often Drain looks for threads that have become idle.
const drainPoll = 50 * time.Millisecond

// Leaver is a Runner that can be closed without ending its run in
// flight, which stays in flight in its store for whoever opens the
// thread next, in this process after a restart or in another sharing
// the store (see conductor.Agent.Leave). AgentRunner's runners are; a
// runner that is not is closed when Drain gives up on its run.
type Leaver interface {
	Leave() error
}

func (a agentRunner) Leave() error { return a.Agent.Leave() }

// Drain shuts the handler down gently, for a restart: it takes no new
// work (a new thread, or a new run on an open one, gets 503 with a
// Retry-After, and a request another handler hands it for a thread it
// does not hold, or for a new run of one it holds, gets 421, so that the
// other opens the thread itself; a request for a thread another handler
// drives is handed there),
// while the runs in flight go on, their streams, steering, answers and
// aborts served as before. Each thread is closed as soon as nothing holds
// it, which releases its session for the other handlers that share the
// store. When every thread is closed Drain closes the handler and returns.
// When ctx ends first, the runs still in flight are left in flight
// (Leaver): nothing of their end is recorded, and their streams are broken
// off, as if the server had died, so that their clients reconnect and
// find the run going on where the thread is opened next. A run that
// waits for the client (ClientAnswers) is let go at once, as an idle
// thread is.
func (h *Handler) Drain(ctx context.Context) error {
	h.mu.Lock()
	if h.closed {
		h.mu.Unlock()
		return nil
	}
	h.draining = true
	h.mu.Unlock()
	tick := time.NewTicker(drainPoll)
	defer tick.Stop()
	for !h.closeDrained() {
		select {
		case <-ctx.Done():
			return h.close(true)
		case <-tick.C:
		}
	}
	return h.close(false)
}

// closeDrained closes the threads nothing holds, however long they have
// been idle, and reports whether none is left.
func (h *Handler) closeDrained() bool {
	for _, t := range h.retireIdle(time.Now(), 0) {
		if err := h.closeThread(t, false); err != nil {
			h.opts.Logger.Warn("wire: close drained thread", "thread", t.key, "err", err)
		}
	}
	h.mu.Lock()
	defer h.mu.Unlock()
	return len(h.threads) == 0
}

// refuseDraining answers a request for new work while the handler
// drains, and reports whether it did. One another handler handed over is
// misdirected: the sender opens the thread itself once the drain has let
// it go, and runs the work there.
func (h *Handler) refuseDraining(w http.ResponseWriter, r *http.Request) bool {
	h.mu.Lock()
	draining := h.draining
	h.mu.Unlock()
	switch {
	case !draining:
	case r.Header.Get(forwardedHeader) != "":
		httpError(w, http.StatusMisdirectedRequest, "%v", errDraining)
	default:
		w.Header().Set("Retry-After", retryAfter)
		httpError(w, http.StatusServiceUnavailable, "%v", errDraining)
	}
	return draining
}

// dropIfLeft breaks off the stream of a thread whose run was left in
// flight (Drain), as a server that dies breaks it off: no end of the run
// is written, the connection is cut, and the client reconnects, as the
// AG-UI and AI SDK clients do after a dropped connection, to find the
// run going on wherever the thread is opened next.
func (s *streamer) dropIfLeft() {
	if s.t.left.Load() {
		panic(http.ErrAbortHandler)
	}
}
