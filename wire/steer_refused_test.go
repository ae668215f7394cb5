package wire

import (
	"context"
	"errors"
	"fmt"
	"net/http"
	"sync/atomic"
	"testing"

	"github.com/batonrt/baton/conductor"
	"github.com/batonrt/baton/contract"
)

// refusingRunner fails, once set, to steer with steerErr, or to read its
// events with eventsErr, while its run stays in flight.
type refusingRunner struct {
	steerHumanRunner
	on                  *atomic.Bool
	steerErr, eventsErr error
}

func (r refusingRunner) Steer(ctx context.Context, input []contract.Turn) error {
	if r.on.Load() && r.steerErr != nil {
		return r.steerErr
	}
	return r.steerHumanRunner.Steer(ctx, input)
}

func (r refusingRunner) EventsSince(ctx context.Context, seq uint64) ([]contract.RunEvent, error) {
	if r.on.Load() && r.eventsErr != nil {
		return nil, r.eventsErr
	}
	return r.steerHumanRunner.EventsSince(ctx, seq)
}

// TestAFailedSteerSaysWhy: a message posted while the run waits, whose
// steering the runner refuses or fails to record, or whose thread's
// events cannot be read, gets the real cause: 409 with the refusal's
// reason, 500 for a store's failure with addresses and keys redacted.
// It got 409 "already has a run in flight", as if nothing had failed.
func TestAFailedSteerSaysWhy(t *testing.T) {
	secret := errors.New(`append: Post "https://db.internal/x?token=s3cret": connection refused`)
	cases := []struct {
		name                string
		steerErr, eventsErr error
		code                int
		want                string
	}{
		{"rejected", fmt.Errorf("%w: steering is closed for this run", conductor.ErrRejected), nil, http.StatusConflict, "steering is closed for this run"},
		{"store", contract.WrapError(contract.KindStore, secret, "persist steered"), nil, http.StatusInternalServerError, "connection refused"},
		{"events", nil, contract.WrapError(contract.KindStore, secret, "read events"), http.StatusInternalServerError, "connection refused"},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			var on atomic.Bool
			h, srv := approvingSteerServer(t, make(chan []string, 16), func(r steerHumanRunner) Runner { return refusingRunner{r, &on, tc.steerErr, tc.eventsErr} })
			msg := func(id, text string) map[string]any { return map[string]any{"id": id, "role": "user", "content": text} }
			awaitingAfterFirst(t, h, srv.URL, "t1", aguiBody("t1", []map[string]any{msg("m1", "clean up")}))
			on.Store(true)
			code, body := post(t, srv.URL, aguiBody("t1", []map[string]any{msg("m1", "clean up"), msg("m2", "keep the build")}))
			wantRedactedFailure(t, "steering post", code, body, tc.code, tc.want)
		})
	}
}
