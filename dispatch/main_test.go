package dispatch

import (
	"context"
	"encoding/json"
	"testing"
	"time"

	"github.com/batonrt/baton/contract"
	"go.uber.org/goleak"
)

func TestMain(m *testing.M) { goleak.VerifyTestMain(m) }

// toolOf builds a raw tool for scheduler tests.
func toolOf(t testing.TB, name string, fn RawFunc, opts ...Option) Tool {
	t.Helper()
	d := contract.ToolDescriptor{Name: name}
	for _, o := range opts {
		o(&d)
	}
	tl, err := NewTool(d, fn)
	if err != nil {
		t.Fatal(err)
	}
	return tl
}

// outcomes collects delivered outcomes in delivery order.
type outcomes chan Outcome

func newOutcomes(n int) outcomes { return make(outcomes, n) }

func (o outcomes) done(out Outcome) { o <- out }

// next waits for one outcome; the bound only stops a broken test hanging.
func (o outcomes) next(t testing.TB) Outcome {
	t.Helper()
	select {
	case out := <-o:
		return out
	case <-time.After(10 * time.Second):
		t.Fatal("no outcome delivered")
		return Outcome{}
	}
}

// fataler is what testing.TB and rapid.T share.
type fataler interface {
	Helper()
	Fatalf(format string, args ...any)
}

func closeScheduler(t fataler, s *Scheduler) {
	t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
	defer cancel()
	if err := s.Close(ctx); err != nil {
		t.Fatalf("close: %v", err)
	}
}

func text(s string) RawFunc {
	return func(context.Context, json.RawMessage) (contract.ToolOutcome, error) {
		return contract.ToolOutcome{Content: s}, nil
	}
}

// blockUntil returns a tool body that signals started and waits for
// release or its context.
func blockUntil(started chan<- string, release <-chan struct{}) RawFunc {
	return func(ctx context.Context, _ json.RawMessage) (contract.ToolOutcome, error) {
		started <- CallID(ctx)
		select {
		case <-release:
			return contract.ToolOutcome{Content: "released"}, nil
		case <-ctx.Done():
			return contract.ToolOutcome{}, ctx.Err()
		}
	}
}

func call(id string) contract.ToolCall { return contract.ToolCall{ID: id, Name: "t", Arguments: "{}"} }
