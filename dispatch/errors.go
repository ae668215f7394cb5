package dispatch

import "errors"

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
	// ErrTimedOut is the cause of a call that ran past its timeout.
	ErrTimedOut = errors.New("dispatch: call timed out")
	// ErrStragglers is returned by Close when tools ignored cancellation
	// and were still running when its context ended.
	ErrStragglers = errors.New("dispatch: tools ignored cancellation")
)
