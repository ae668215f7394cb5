package dispatch

import (
	"context"
	"errors"
	"time"
)

// IDs name the call a tool is running for. CallID is the idempotency key:
// a call run again on resume carries the same one.
type IDs struct {
	CallID    string
	SessionID string
	RunID     string
	// WorkDir is the session's working directory, where relative paths
	// of the call start; empty when the host set none.
	WorkDir string
}

type idsKey struct{}

// WithIDs returns ctx carrying ids, for running a tool outside a
// Scheduler (in tests, say) the way the Scheduler would.
func WithIDs(ctx context.Context, ids IDs) context.Context {
	return context.WithValue(ctx, idsKey{}, ids)
}

// IDsFrom returns the ids ctx carries; zero outside a tool call.
func IDsFrom(ctx context.Context) IDs {
	switch v := ctx.Value(idsKey{}).(type) {
	case IDs:
		return v
	case *job:
		return IDs{CallID: v.Call.ID, SessionID: v.SessionID, RunID: v.RunID, WorkDir: v.WorkDir}
	}
	return IDs{}
}

// CallID returns the id of the call ctx belongs to, the idempotency key.
func CallID(ctx context.Context) string { return IDsFrom(ctx).CallID }

// SessionID returns the session id of the call ctx belongs to.
func SessionID(ctx context.Context) string { return IDsFrom(ctx).SessionID }

// RunID returns the run id of the call ctx belongs to.
func RunID(ctx context.Context) string { return IDsFrom(ctx).RunID }

// WorkDir returns the working directory of the session the call belongs
// to; empty when the host set none.
func WorkDir(ctx context.Context) string { return IDsFrom(ctx).WorkDir }

// callCtx hands a tool its ids without allocating: it lives inside the job.
type callCtx struct {
	context.Context
	j *job
}

func (c *callCtx) Value(key any) any {
	if _, ok := key.(idsKey); ok {
		return c.j
	}
	return c.Context.Value(key)
}

// Err reports a call cut off by its own timeout as
// context.DeadlineExceeded, as a context.WithTimeout would, so tools need
// no dispatch-specific check.
func (c *callCtx) Err() error {
	err := c.Context.Err()
	if err != nil && errors.Is(context.Cause(c.Context), ErrTimedOut) {
		return context.DeadlineExceeded
	}
	return err
}

// Deadline is the call's timeout, or the dispatch context's deadline if
// that comes first.
func (c *callCtx) Deadline() (time.Time, bool) {
	d := c.j.started.Add(c.j.timeout)
	if pd, ok := c.Context.Deadline(); ok && pd.Before(d) {
		return pd, true
	}
	return d, true
}
