package wire

import "context"

// Open opens the thread of id as a request for it would: its runner is
// made, which resumes a run its session holds in flight, and the thread
// stays open until it idles. The error wraps store.ErrLocked when another
// process drives the thread. A host whose handlers share a store calls
// it for the sessions a dead process left behind, so that their runs go
// on without waiting for a client to ask.
func (h *Handler) Open(ctx context.Context, threadID string) error {
	if err := h.checkThreadID(threadID); err != nil {
		return err
	}
	t, _, err := h.acquire(ctx, threadID)
	if err != nil {
		return err
	}
	h.release(t)
	return nil
}
