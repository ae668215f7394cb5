package conductor

import (
	"context"
	"strings"
	"sync"

	"github.com/batonrt/baton/contract"
)

// ctxStop is what a caller waiting for a run (Submit, Resume) knows of
// the abort its context's end asked for. The run's fault is recorded as
// any abort is, a RunError without a cause, as that is what the store
// keeps; the caller's error wraps the context's error and cause besides,
// as the error of a call whose context had ended before it began does,
// so a host tells a deadline from a person who left with errors.Is.
type ctxStop struct {
	mu         sync.Mutex
	err, cause error // set once the abort is the run's
}

// abort aborts run for ctx's end, unless it has ended already.
func (s *ctxStop) abort(a *Agent, run *runState, ctx context.Context) {
	err, cause := ctx.Err(), context.Cause(ctx)
	_ = a.call(context.Background(), func() error {
		if a.run != run {
			return nil
		}
		// Noted before the abort is applied: applying it answers the
		// waiter, which reads this next.
		s.set(err, cause)
		if a.abortNow(contract.AbortNow, "submit context cancelled: "+cause.Error()) != nil {
			// Not taken: what ends the run now is no abort of ctx's.
			s.set(nil, nil)
		}
		return nil
	})
}

func (s *ctxStop) set(err, cause error) {
	s.mu.Lock()
	s.err, s.cause = err, cause
	s.mu.Unlock()
}

// outcome is o, its abort fault wrapping the context's error when the
// context's end aborted the run. The message loses the cause's text,
// which the wrapped cause adds back, so the error reads as the recorded
// fault does.
func (s *ctxStop) outcome(o *outcome) *outcome {
	if s == nil {
		return o
	}
	s.mu.Lock()
	err, cause := s.err, s.cause
	s.mu.Unlock()
	re, ok := contract.AsRunError(o.err)
	if err == nil || !ok || re.Kind != contract.KindAborted || re.Cause != nil {
		return o
	}
	wrapped := *re
	wrapped.Message = strings.TrimSuffix(re.Message, ": "+cause.Error())
	wrapped.Cause = ctxEnded{err: err, cause: cause}
	return &outcome{snap: o.snap, err: &wrapped}
}

// ctxEnded is a context's end: its error and its cause, which reads as
// the cause alone, as the recorded abort reason has it.
type ctxEnded struct{ err, cause error }

func (e ctxEnded) Error() string   { return e.cause.Error() }
func (e ctxEnded) Unwrap() []error { return []error{e.err, e.cause} }
