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
