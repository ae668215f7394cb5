package conductor_test

import (
	"context"
	"errors"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"

	"github.com/batonrt/baton/conductor"
	"github.com/batonrt/baton/contract"
	"github.com/batonrt/baton/turn"
)

// TestServerAskingTooLongAWaitFaultsTheRun: the longest wait between
// attempts a host sets reaches the model calls, so a server that asks for
// more (Retry-After) faults the run at once, saying what it asked for,
// rather than holding it that long.
func TestServerAskingTooLongAWaitFaultsTheRun(t *testing.T) {
	limited := func(context.Context, contract.ModelRequest) ([]turn.Chunk, error) {
		return nil, &turn.ProviderError{Failure: contract.FailRateLimited, Status: 429, RetryAfter: 10 * time.Second}
	}
	m := &fakeModel{replies: []replyFunc{limited, say("too late")}}
	deps := testDeps(m, nil)
	deps.Model.MaxRetries, deps.Model.TotalTimeout, deps.Model.MaxRetryWait = 3, -1, time.Second
	a := newAgent(t, contract.AgentConfig{}, deps)
	ctx, cancel := context.WithTimeout(context.Background(), 5*time.Second)
	defer cancel()
	snap, err := a.Submit(ctx, conductor.Text("go"))
	var runErr *contract.RunError
	if !errors.As(err, &runErr) {
		t.Fatalf("submit: err %v, want a run error", err)
	}
	want := "rate_limited: turn: provider rate_limited (status 429); not retried: the server asked to wait 10s, more than the longest wait allowed (1s)"
	if diff := cmp.Diff(want, runErr.Message); diff != "" {
		t.Errorf("run error message mismatch (-want +got):\n%s", diff)
	}
	if snap.Phase != contract.PhaseFaulted || len(m.Requests()) != 1 {
		t.Errorf("phase %s after %d model calls, want faulted after 1", snap.Phase, len(m.Requests()))
	}
}
