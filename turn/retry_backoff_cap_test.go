package turn_test

import (
	"context"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"

	"github.com/batonrt/baton/contract"
	"github.com/batonrt/baton/turn"
)

// TestBackoffLongerThanTheLongestWaitIsCut: the driver's own back-off is
// not a server's demand, so growing past MaxRetryWait (a host's
// MaxBackoff above it, the bound left at its default) cuts the wait to
// the bound rather than failing a call that still has retries left.
func TestBackoffLongerThanTheLongestWaitIsCut(t *testing.T) {
	busy := play{err: &turn.ProviderError{Failure: contract.FailServer, Status: 503}}
	r := &recorder{}
	opts := testOptions(r)
	opts.TotalTimeout, opts.RetryBudget = -1, -1
	opts.MaxRetries, opts.BaseBackoff, opts.MaxBackoff = 3, time.Minute, 4*time.Minute
	got := turn.NewDriver(newFake(busy, busy, busy, hello), opts).Run(context.Background(), weatherReq, r.publish)
	if rep, ok := got.(contract.ModelReplied); !ok || rep.Reply.Text() != "Hello, world." {
		t.Errorf("got %#v, want the reply", got)
	}
	want := []time.Duration{45 * time.Second, 90 * time.Second, turn.DefaultMaxRetryWait}
	if diff := cmp.Diff(want, r.sleeps); diff != "" {
		t.Errorf("sleeps mismatch (-want +got):\n%s", diff)
	}
}
