package dispatch

import (
	"context"
	"errors"
	"sync"
	"time"
)

// callCtx is the context a tool sees. It lives inside the job and hands
// the tool its ids without allocating (Value). The cancellable context
// under it is made only when the tool first asks for it (Done, Err or
// Value): most tools never look, and their calls then cost no context of
// their own. Until then the call's cancellation is a cause kept here,
// which the context, once made, starts with.
type callCtx struct {
	j *job

	mu     sync.Mutex
	ctx    context.Context // nil until made
	cancel context.CancelCauseFunc
	why    error // the cause end was first called with
	ended  bool  // end was called before ctx was made
	// withDispatch says the dispatch context had ended by then, which a
	// child of it would have seen first, whatever end was called with.
	withDispatch bool
}

// String reads no field, so printing the context does not race with end.
func (c *callCtx) String() string { return "dispatch.callCtx" }

// made returns the call's cancellable context, making it first: a child
// of the dispatch context, or, for a call that ended on its own first,
// one ended with its cause, whatever became of the dispatch context
// since.
func (c *callCtx) made() context.Context {
	c.mu.Lock()
	defer c.mu.Unlock()
	if c.ctx == nil {
		own := c.ended && !c.withDispatch
		parent := c.j.dctx
		if own {
			parent = context.WithoutCancel(parent)
		}
		c.ctx, c.cancel = context.WithCancelCause(parent)
		if own {
			c.cancel(c.why)
		}
	}
	return c.ctx
}

// end cancels the call with cause (context.Canceled when nil); the first
// cause stays, as with a context's own cancel.
func (c *callCtx) end(cause error) {
	if cause == nil {
		cause = context.Canceled
	}
	c.mu.Lock()
	defer c.mu.Unlock()
	if c.ctx != nil {
		c.cancel(cause)
		return
	}
	if !c.ended {
		if c.j.dctx.Err() != nil {
			// A child of the dispatch context would have ended with it.
			cause, c.withDispatch = context.Cause(c.j.dctx), true
		}
		c.ended, c.why = true, cause
	}
}

// cause is why the call was cancelled, or nil while it goes on; it makes
// no context.
func (c *callCtx) cause() error {
	c.mu.Lock()
	ctx, ended, why := c.ctx, c.ended, c.why
	c.mu.Unlock()
	switch {
	case ctx != nil:
		return context.Cause(ctx)
	case ended:
		return why
	case c.j.dctx.Err() != nil:
		// A child of the dispatch context would have ended with it.
		return context.Cause(c.j.dctx)
	}
	return nil
}

func (c *callCtx) Done() <-chan struct{} { return c.made().Done() }

// Err reports a call cut off by its own timeout as
// context.DeadlineExceeded, as a context.WithTimeout would, so tools need
// no dispatch-specific check.
func (c *callCtx) Err() error {
	ctx := c.made()
	err := ctx.Err()
	if err != nil && errors.Is(context.Cause(ctx), ErrTimedOut) {
		return context.DeadlineExceeded
	}
	return err
}

func (c *callCtx) Value(key any) any {
	if _, ok := key.(idsKey); ok {
		return c.j
	}
	return c.made().Value(key)
}

// Deadline is the call's timeout, or the dispatch context's deadline if
// that comes first.
func (c *callCtx) Deadline() (time.Time, bool) {
	d := c.j.deadline()
	if pd, ok := c.j.dctx.Deadline(); ok && pd.Before(d) {
		return pd, true
	}
	return d, true
}
