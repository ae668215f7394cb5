package dispatch_test

import (
	"context"
	"encoding/json"
	"errors"
	"math"
	"sync/atomic"
	"testing"
	"time"

	"github.com/batonrt/baton/contract"
	"github.com/batonrt/baton/dispatch"
)

// A tool cut off by its timeout sees context.DeadlineExceeded, as it
// would under context.WithTimeout.
func TestToolTimeoutIsADeadline(t *testing.T) {
	seen := make(chan error, 1)
	tool, err := dispatch.NewTool(contract.ToolDescriptor{Name: "wait", Timeout: 20 * time.Millisecond},
		func(ctx context.Context, _ json.RawMessage) (contract.ToolOutcome, error) {
			<-ctx.Done()
			seen <- ctx.Err()
			return contract.ToolOutcome{}, ctx.Err()
		})
	if err != nil {
		t.Fatal(err)
	}
	s := dispatch.NewScheduler(dispatch.Options{})
	defer s.Close(context.Background())
	done := make(chan dispatch.Outcome, 1)
	if err := s.Dispatch(context.Background(), dispatch.Job{Call: contract.ToolCall{ID: "c1", Name: "wait"}, Tool: tool, Done: func(o dispatch.Outcome) { done <- o }}); err != nil {
		t.Fatal(err)
	}
	o := <-done
	if got := <-seen; !errors.Is(got, context.DeadlineExceeded) {
		t.Fatalf("tool saw %v, want context.DeadlineExceeded", got)
	}
	if !o.TimedOut || !errors.Is(dispatch.ErrTimedOut, context.DeadlineExceeded) {
		t.Fatalf("outcome %+v", o)
	}
}

// A later call times out at its own deadline whether it comes before or
// after that of an earlier call, which has ended.
func TestTimeoutsAfterAnEarlierCallEnded(t *testing.T) {
	quick := func(name string, timeout time.Duration) dispatch.Tool {
		tool, err := dispatch.NewTool(contract.ToolDescriptor{Name: name, Timeout: timeout},
			func(context.Context, json.RawMessage) (contract.ToolOutcome, error) {
				return contract.ToolOutcome{Content: "ok"}, nil
			})
		if err != nil {
			t.Fatal(err)
		}
		return tool
	}
	stuck := func(name string, timeout time.Duration) dispatch.Tool {
		tool, err := dispatch.NewTool(contract.ToolDescriptor{Name: name, Timeout: timeout},
			func(ctx context.Context, _ json.RawMessage) (contract.ToolOutcome, error) {
				<-ctx.Done()
				return contract.ToolOutcome{}, ctx.Err()
			})
		if err != nil {
			t.Fatal(err)
		}
		return tool
	}
	for _, tc := range []struct {
		name string
		// first and later are the calls' timeouts in the first round.
		first, later time.Duration
	}{
		{"later call's deadline first", time.Hour, 30 * time.Millisecond},
		{"earlier call's deadline first", 20 * time.Millisecond, 60 * time.Millisecond},
	} {
		t.Run(tc.name, func(t *testing.T) {
			// A round says nothing when the quick call did not end before
			// its deadline, as a short one may not on a busy machine: the
			// timeouts double until it does.
			for scale := time.Duration(1); !timeoutsRound(t, quick("first", tc.first*scale), stuck("later", tc.later*scale)); scale *= 2 {
				if tc.first*scale > 10*time.Second {
					t.Fatal("the quick call never ended before its deadline")
				}
			}
		})
	}
}

// timeoutsRound runs first, then later, on one scheduler and checks
// that later times out; it reports false, checking nothing more, when
// first timed out.
func timeoutsRound(t *testing.T, first, later dispatch.Tool) bool {
	t.Helper()
	s := dispatch.NewScheduler(dispatch.Options{})
	defer s.Close(context.Background())
	run := func(id string, tool dispatch.Tool) dispatch.Outcome {
		done := make(chan dispatch.Outcome, 1)
		if err := s.Dispatch(context.Background(), dispatch.Job{Call: contract.ToolCall{ID: id, Name: tool.Descriptor().Name}, Tool: tool, Done: func(o dispatch.Outcome) { done <- o }}); err != nil {
			t.Fatal(err)
		}
		select {
		case o := <-done:
			return o
		case <-time.After(2 * time.Minute): // past the longest round's 31s
			t.Fatalf("call %s never ended", id)
			return dispatch.Outcome{}
		}
	}
	switch o := run("c1", first); {
	case o.TimedOut:
		return false
	case o.Outcome.IsError:
		t.Fatalf("first call: %+v", o)
	}
	if o := run("c2", later); !o.TimedOut {
		t.Fatalf("later call did not time out: %+v", o)
	}
	return true
}

// A timeout too long to add to the start ("none", as math.MaxInt64)
// neither times the call out at once nor keeps a call beside it from
// timing out at its own deadline; the tool sees a deadline ahead.
func TestHugeTimeoutIsNone(t *testing.T) {
	release := make(chan struct{})
	var seen time.Time
	huge, err := dispatch.NewTool(contract.ToolDescriptor{Name: "huge", Timeout: math.MaxInt64},
		func(ctx context.Context, _ json.RawMessage) (contract.ToolOutcome, error) {
			seen, _ = ctx.Deadline()
			select {
			case <-release:
				return contract.ToolOutcome{Content: "ok"}, nil
			case <-ctx.Done():
				return contract.ToolOutcome{}, ctx.Err()
			}
		})
	if err != nil {
		t.Fatal(err)
	}
	short, err := dispatch.NewTool(contract.ToolDescriptor{Name: "short", Timeout: 20 * time.Millisecond},
		func(ctx context.Context, _ json.RawMessage) (contract.ToolOutcome, error) {
			<-ctx.Done()
			return contract.ToolOutcome{}, ctx.Err()
		})
	if err != nil {
		t.Fatal(err)
	}
	s := dispatch.NewScheduler(dispatch.Options{})
	defer s.Close(context.Background())
	outcomes := make(chan dispatch.Outcome, 2)
	for _, tool := range []dispatch.Tool{huge, short} {
		name := tool.Descriptor().Name
		if err := s.Dispatch(context.Background(), dispatch.Job{Call: contract.ToolCall{ID: name, Name: name}, Tool: tool, Done: func(o dispatch.Outcome) { outcomes <- o }}); err != nil {
			t.Fatal(err)
		}
	}
	select {
	case o := <-outcomes:
		if o.CallID != "short" || !o.TimedOut {
			t.Fatalf("first outcome %+v, want the short call timed out", o)
		}
	case <-time.After(10 * time.Second):
		t.Fatal("the short call never timed out beside the huge one")
	}
	close(release)
	if o := <-outcomes; o.CallID != "huge" || o.TimedOut || o.Outcome.IsError {
		t.Fatalf("huge call's outcome %+v, want it answered", o)
	}
	if !seen.After(time.Now().Add(24 * time.Hour)) {
		t.Errorf("the huge call's tool saw deadline %v, want one far ahead", seen)
	}
}

// countingTool counts its Descriptor calls.
type countingTool struct {
	dispatch.Tool
	descriptors atomic.Int32
}

func (c *countingTool) Descriptor() contract.ToolDescriptor {
	c.descriptors.Add(1)
	return c.Tool.Descriptor()
}

// A tool's descriptor is read when its call is dispatched and not after:
// a call that times out, panics or fails to start is answered without
// asking the tool again, possibly under the scheduler's lock or while
// recovering its panic.
func TestDescriptorIsReadAtDispatchOnly(t *testing.T) {
	for _, tc := range []struct {
		name  string
		run   func(context.Context, json.RawMessage) (contract.ToolOutcome, error)
		start func(context.Context) error
	}{
		{"timed out", func(ctx context.Context, _ json.RawMessage) (contract.ToolOutcome, error) {
			<-ctx.Done()
			return contract.ToolOutcome{}, ctx.Err()
		}, nil},
		{"panicked", func(context.Context, json.RawMessage) (contract.ToolOutcome, error) { panic("boom") }, nil},
		{"not started", nil, func(context.Context) error { return errors.New("no") }},
	} {
		t.Run(tc.name, func(t *testing.T) {
			run := tc.run
			if run == nil {
				run = func(context.Context, json.RawMessage) (contract.ToolOutcome, error) {
					return contract.ToolOutcome{}, nil
				}
			}
			inner, err := dispatch.NewTool(contract.ToolDescriptor{Name: "t", Timeout: 20 * time.Millisecond}, run)
			if err != nil {
				t.Fatal(err)
			}
			tool := &countingTool{Tool: inner}
			s := dispatch.NewScheduler(dispatch.Options{Grace: time.Millisecond})
			defer s.Close(context.Background())
			done := make(chan dispatch.Outcome, 1)
			if err := s.Dispatch(context.Background(), dispatch.Job{Call: contract.ToolCall{ID: "c1", Name: "t"}, Tool: tool, Start: tc.start, Done: func(o dispatch.Outcome) { done <- o }}); err != nil {
				t.Fatal(err)
			}
			atDispatch := tool.descriptors.Load()
			var o dispatch.Outcome
			select {
			case o = <-done:
			case <-time.After(10 * time.Second):
				t.Fatal("no outcome")
			}
			if !o.Outcome.IsError {
				t.Fatalf("outcome %+v, want an error", o)
			}
			if n := tool.descriptors.Load(); n != atDispatch {
				t.Errorf("Descriptor called %d times after Dispatch returned, want none", n-atDispatch)
			}
		})
	}
}
