package dispatch

import (
	"context"
	"errors"
)

// Sentinel errors callers branch on with errors.Is.
var (
	// ErrClosed is returned by Dispatch after Close.
	ErrClosed = errors.New("dispatch: scheduler closed")
	// ErrBadJob is returned by Dispatch for a job it cannot run.
	ErrBadJob = errors.New("dispatch: bad job")
	// ErrDuplicateCall is returned by Dispatch when a call with the same id
	// has not delivered its outcome yet.
	ErrDuplicateCall = errors.New("dispatch: duplicate call id")
	// ErrInvalidTool is returned for a nil tool, an invalid name or bad
	// options.
	ErrInvalidTool = errors.New("dispatch: invalid tool")
	// ErrDuplicateTool is returned when a box already holds the name.
	ErrDuplicateTool = errors.New("dispatch: duplicate tool")
	// ErrCancelled is the cause of a call cancelled by Cancel, CancelAll
	// or Close.
	ErrCancelled = errors.New("dispatch: call cancelled")
	// ErrTimedOut is the cause of a call that ran past its timeout; it
	// matches context.DeadlineExceeded too.
	ErrTimedOut error = timedOut{}
	// ErrStragglers is returned by Close when tools ignored cancellation
	// and were still running when its context ended.
	ErrStragglers = errors.New("dispatch: tools ignored cancellation")
)

// timedOut is ErrTimedOut: a tool that checks its context the usual way,
// errors.Is(err, context.DeadlineExceeded), recognises its timeout.
type timedOut struct{}

func (timedOut) Error() string   { return "dispatch: call timed out" }
func (timedOut) Timeout() bool   { return true }
func (timedOut) Temporary() bool { return true }
func (timedOut) Is(target error) bool {
	return target == context.DeadlineExceeded
}
