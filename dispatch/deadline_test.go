package dispatch_test

import (
	"context"
	"encoding/json"
	"errors"
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

// A call that ends leaves the scheduler's timer armed for its deadline;
// a later call with an earlier deadline still times out at its own, and
// one with a later deadline once the timer has fired for nothing.
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
		name         string
		first, later dispatch.Tool
	}{
		{"later call's deadline first", quick("long", time.Hour), stuck("short", 30*time.Millisecond)},
		{"earlier call's deadline first", quick("short", 20*time.Millisecond), stuck("longer", 60*time.Millisecond)},
	} {
		t.Run(tc.name, func(t *testing.T) {
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
				case <-time.After(10 * time.Second):
					t.Fatalf("call %s never ended", id)
					return dispatch.Outcome{}
				}
			}
			if o := run("c1", tc.first); o.TimedOut || o.Outcome.IsError {
				t.Fatalf("first call: %+v", o)
			}
			if o := run("c2", tc.later); !o.TimedOut {
				t.Fatalf("later call did not time out: %+v", o)
			}
		})
	}
}
