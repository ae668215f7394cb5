package wire

import (
	"context"
	"fmt"
	"strings"
)

// Open opens the thread of key as a request for it would: its runner is
// made, which resumes a run its session holds in flight, and the thread
// stays open until it idles. The key is the thread's id, or with
// HandlerOptions.Users its user's name, a slash and its id, as the runner
// factory is handed it. The error wraps store.ErrLocked when another
// process drives the thread. A host whose handlers share a store calls
// it for the sessions a dead process left behind, so that their runs go
// on without waiting for a client to ask.
func (h *Handler) Open(ctx context.Context, key string) error {
	n := threadName{key: key, id: key}
	if len(h.users) > 0 {
		user, id, ok := strings.Cut(key, "/")
		if !ok || !h.isUser(user) {
			return fmt.Errorf("wire: thread key %q names no user", key)
		}
		n.id = id
	}
	if err := h.checkThreadID(n.id); err != nil {
		return err
	}
	if len(key) > h.opts.MaxThreadID {
		return fmt.Errorf("wire: thread key is %d bytes, at most %d", len(key), h.opts.MaxThreadID)
	}
	t, _, err := h.acquire(ctx, n)
	if err != nil {
		return err
	}
	h.release(t)
	return nil
}
