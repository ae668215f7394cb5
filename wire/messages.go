package wire

import (
	"encoding/json"
	"net/http"

	"github.com/batonrt/baton/contract"
	"github.com/batonrt/baton/wire/aisdk"
)

// messagesSuffix ends the path of a thread's conversation:
// GET {base}/{thread}/messages.
const messagesSuffix = "/messages"

// threadMessages is the answer to GET .../{thread}/messages.
type threadMessages struct {
	// Messages are the thread's runs as the AI SDK chat's messages.
	Messages []aisdk.UIMessage `json:"messages"`
	// Phase is the thread's run's phase; one in flight is the last
	// run's, and its stream may be resumed.
	Phase contract.Phase `json:"phase"`
	// Error is what the thread's last run faulted with, as its stream's
	// error chunk said it; a client shows it as the chat's error, as the
	// stream made it.
	Error string `json:"error,omitempty"`
}

// messages answers with the thread's conversation so far, every run of
// it, as the AI SDK's chat messages (see aisdk.Messages): what a client
// that comes back to a thread shows before it resumes the run in flight,
// whose resumed stream replaces the run's last message, which has the
// same id. It only reads: nothing in the thread changes.
func (h *Handler) messages(w http.ResponseWriter, r *http.Request) {
	threadID, err := threadIDFromPath(r.URL, messagesSuffix)
	if err != nil {
		httpError(w, http.StatusBadRequest, "%v", err)
		return
	}
	t, ok := h.useThread(w, r, threadID)
	if !ok {
		return
	}
	defer h.release(t)
	// The phase is read first: a run that ends meanwhile is then in the
	// events as well, while one said to be in flight may have ended,
	// which a resume finds out.
	phase := t.r.Snapshot().Phase
	events, _, err := t.history(r.Context())
	if err != nil {
		h.internalError(w, err, "wire: events of thread %q could not be read", threadID)
		return
	}
	conv := aisdk.Fold(t.id, events)
	b, err := json.Marshal(threadMessages{Messages: conv.Messages, Phase: phase, Error: conv.Error})
	if err != nil {
		h.internalError(w, err, "wire: messages of thread %q could not be encoded", threadID)
		return
	}
	w.Header().Set("Content-Type", "application/json")
	w.Header().Set("Cache-Control", "no-store")
	w.Header().Set("X-Content-Type-Options", "nosniff")
	// Written as a stream is, a piece at a time under the write timeout:
	// a client that stops reading a long thread is cut off rather than
	// holding the thread open for ever.
	out := newDeadlineWriter(w, h.opts.WriteTimeout)
	for len(b) > 0 {
		n := min(len(b), messagesPiece)
		if _, err := out.Write(b[:n]); err != nil {
			return
		}
		b = b[n:]
	}
}

// messagesPiece is how much of a thread's messages one write under a
// deadline carries.
const messagesPiece = 64 << 10
