package dispatch

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"testing"
	"time"

	"github.com/batonrt/baton/contract"
)

// seen is what a tool found in its context when it first looked.
type seen struct {
	done  bool
	err   error
	cause error
}

func look(ctx context.Context) seen {
	s := seen{err: ctx.Err(), cause: context.Cause(ctx)}
	select {
	case <-ctx.Done():
		s.done = true
	default:
	}
	return s
}

// blindCall is call "c" of a tool that does not look at its context
// until told to, on a scheduler of its own.
type blindCall struct {
	s       *Scheduler
	outs    outcomes
	release chan struct{}
	found   chan seen
}

// startBlind dispatches a blind call with timeout under dctx and returns
// once its tool has started.
func startBlind(t *testing.T, dctx context.Context, timeout time.Duration) blindCall {
	t.Helper()
	b := blindCall{s: NewScheduler(Options{Grace: time.Minute}), outs: newOutcomes(1), release: make(chan struct{}), found: make(chan seen, 1)}
	started := make(chan struct{})
	tool := toolOf(t, "t", func(ctx context.Context, _ json.RawMessage) (contract.ToolOutcome, error) {
		close(started)
		<-b.release
		b.found <- look(ctx)
		return contract.ToolOutcome{Content: "late"}, nil
	}, Timeout(timeout))
	if err := b.s.Dispatch(dctx, Job{Call: call("c"), Tool: tool, Done: b.outs.done}); err != nil {
		t.Fatal(err)
	}
	<-started
	return b
}

// look lets the tool look at its context and returns what it found.
func (b blindCall) look() seen {
	close(b.release)
	return <-b.found
}

// A tool's context is made only when the tool first looks at it; one
// that looks only after its call ended finds it ended, with the cause it
// ended with, as if it had been there all along.
func TestContextFirstLookedAtAfterTheCallEnded(t *testing.T) {
	cause := errors.New("host went away")
	tests := []struct {
		name    string
		timeout time.Duration
		end     func(s *Scheduler, cancelDispatch context.CancelCauseFunc)
		// after, if set, runs once the call's outcome is in, before the
		// tool looks.
		after   func(cancelDispatch context.CancelCauseFunc)
		want    seen
		outcome func(Outcome) bool
	}{{
		name:    "timed out",
		timeout: 20 * time.Millisecond,
		end:     func(*Scheduler, context.CancelCauseFunc) {},
		want:    seen{done: true, err: context.DeadlineExceeded, cause: ErrTimedOut},
		outcome: func(o Outcome) bool { return o.TimedOut },
	}, {
		name:    "timed out, then the dispatch context cancelled",
		timeout: 20 * time.Millisecond,
		end:     func(*Scheduler, context.CancelCauseFunc) {},
		after:   func(cancel context.CancelCauseFunc) { cancel(cause) },
		want:    seen{done: true, err: context.DeadlineExceeded, cause: ErrTimedOut},
		outcome: func(o Outcome) bool { return o.TimedOut },
	}, {
		name:    "cancelled",
		timeout: time.Minute,
		end:     func(s *Scheduler, _ context.CancelCauseFunc) { s.Cancel("c") },
		want:    seen{done: true, err: context.Canceled, cause: ErrCancelled},
		outcome: func(o Outcome) bool { return o.Cancelled },
	}, {
		name:    "dispatch context cancelled",
		timeout: time.Minute,
		end:     func(_ *Scheduler, cancel context.CancelCauseFunc) { cancel(cause) },
		want:    seen{done: true, err: context.Canceled, cause: cause},
		outcome: func(o Outcome) bool { return o.Cancelled },
	}}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			dctx, cancel := context.WithCancelCause(context.Background())
			defer cancel(nil)
			b := startBlind(t, dctx, tt.timeout)
			tt.end(b.s, cancel)
			if o := b.outs.next(t); !tt.outcome(o) {
				t.Fatalf("outcome %+v, want the call ended (%s)", o, tt.name)
			}
			if tt.after != nil {
				tt.after(cancel)
			}
			if got := b.look(); got != tt.want {
				t.Errorf("the tool found done %v, err %v, cause %v; want done %v, err %v, cause %v",
					got.done, got.err, got.cause, tt.want.done, tt.want.err, tt.want.cause)
			}
			closeScheduler(t, b.s)
		})
	}
}

// A context a tool kept and first looks at after returning has ended,
// as one made at the start would have when the call finished.
func TestContextFirstLookedAtAfterTheToolReturnedHasEnded(t *testing.T) {
	s := NewScheduler(Options{})
	kept := make(chan context.Context, 1)
	tool := toolOf(t, "t", func(ctx context.Context, _ json.RawMessage) (contract.ToolOutcome, error) {
		kept <- ctx
		return contract.ToolOutcome{Content: "ok"}, nil
	})
	outs := newOutcomes(1)
	if err := s.Dispatch(context.Background(), Job{Call: call("c"), Tool: tool, Done: outs.done}); err != nil {
		t.Fatal(err)
	}
	if o := outs.next(t); o.Outcome.Content != "ok" {
		t.Fatalf("outcome %+v, want ok", o)
	}
	closeScheduler(t, s)
	want := seen{done: true, err: context.Canceled, cause: context.Canceled}
	if got := look(<-kept); got != want {
		t.Errorf("the kept context: done %v, err %v, cause %v; want it ended as cancelled", got.done, got.err, got.cause)
	}
}

// A tool that looks at its context at once sees it end when the call is
// cancelled, with the cancellation's cause.
func TestContextLookedAtFirstEndsWithTheCall(t *testing.T) {
	s := NewScheduler(Options{})
	started, found := make(chan struct{}), make(chan seen, 1)
	tool := toolOf(t, "t", func(ctx context.Context, _ json.RawMessage) (contract.ToolOutcome, error) {
		done := ctx.Done()
		close(started)
		<-done
		found <- look(ctx)
		return contract.ToolOutcome{}, ctx.Err()
	})
	if o := cancelStarted(t, s, tool, started); !o.Cancelled {
		t.Fatalf("outcome %+v, want cancelled", o)
	}
	want := seen{done: true, err: context.Canceled, cause: ErrCancelled}
	if got := <-found; got != want {
		t.Errorf("the tool found done %v, err %v, cause %v; want done, cancelled by ErrCancelled", got.done, got.err, got.cause)
	}
	closeScheduler(t, s)
}

// A call whose dispatch context ended first ends with that context's
// cause and error, whatever ends it next, as a child of that context
// would: a Cancel, or its own timeout coming due.
func TestCallEndedWithItsDispatchContextKeepsItsCause(t *testing.T) {
	cause := errors.New("host went away")
	tests := []struct {
		name string
		next func(s *Scheduler, j *job)
	}{
		{"then cancelled", func(s *Scheduler, _ *job) { s.Cancel("c") }},
		{"then timed out", func(_ *Scheduler, j *job) { j.timedOut() }},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			dctx, cancel := context.WithCancelCause(context.Background())
			defer cancel(nil)
			b := startBlind(t, dctx, time.Minute)
			// Under the scheduler's lock, so the dispatch context's own
			// watcher cannot answer the call before tt.next does.
			b.s.mu.Lock()
			j := b.s.calls["c"]
			cancel(cause)
			b.s.mu.Unlock()
			tt.next(b.s, j)
			o := b.outs.next(t)
			if want := `tool "t" cancelled: host went away`; !o.Cancelled || o.Outcome.Content != want {
				t.Errorf("outcome %+v, want cancelled with %q", o, want)
			}
			want := seen{done: true, err: context.Canceled, cause: cause}
			if got := b.look(); got != want {
				t.Errorf("the tool found done %v, err %v, cause %v; want the dispatch context's", got.done, got.err, got.cause)
			}
			closeScheduler(t, b.s)
		})
	}
}

// A tool that first looks after its dispatch context's deadline passed
// finds context.DeadlineExceeded, as that context reports.
func TestContextFirstLookedAtAfterTheDispatchDeadline(t *testing.T) {
	dctx, cancel := context.WithTimeout(context.Background(), 20*time.Millisecond)
	defer cancel()
	b := startBlind(t, dctx, time.Minute)
	if o := b.outs.next(t); !o.Cancelled {
		t.Fatalf("outcome %+v, want cancelled", o)
	}
	want := seen{done: true, err: context.DeadlineExceeded, cause: context.DeadlineExceeded}
	if got := b.look(); got != want {
		t.Errorf("the tool found done %v, err %v, cause %v; want the dispatch context's deadline", got.done, got.err, got.cause)
	}
	closeScheduler(t, b.s)
}

// A tool may print its context while its call is cancelled (run with
// -race).
func TestPrintingTheContextWhileTheCallIsCancelled(t *testing.T) {
	s := NewScheduler(Options{})
	started, printed := make(chan struct{}), make(chan string, 1)
	tool := toolOf(t, "t", func(ctx context.Context, _ json.RawMessage) (contract.ToolOutcome, error) {
		close(started)
		for range 100 {
			_ = fmt.Sprintf("%v", ctx)
		}
		printed <- fmt.Sprint(ctx)
		<-ctx.Done()
		return contract.ToolOutcome{}, ctx.Err()
	})
	cancelStarted(t, s, tool, started)
	if got := <-printed; got != "dispatch.callCtx" {
		t.Errorf("the context printed as %q", got)
	}
	closeScheduler(t, s)
}

// cancelStarted dispatches call "c" of tool on s, cancels it once
// started is closed, and returns its outcome.
func cancelStarted(t *testing.T, s *Scheduler, tool Tool, started <-chan struct{}) Outcome {
	t.Helper()
	outs := newOutcomes(1)
	if err := s.Dispatch(context.Background(), Job{Call: call("c"), Tool: tool, Done: outs.done}); err != nil {
		t.Fatal(err)
	}
	<-started
	s.Cancel("c")
	return outs.next(t)
}
