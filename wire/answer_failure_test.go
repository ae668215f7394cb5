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

// failingApprover fails, once on, to apply a decision with err, while
// its run stays waiting for it.
type failingApprover struct {
	steerHumanRunner
	on  *atomic.Bool
	err error
}

func (r failingApprover) Approve(ctx context.Context, callID string, d conductor.Decision) error {
	if r.on.Load() {
		return r.err
	}
	return r.steerHumanRunner.Approve(ctx, callID, d)
}

// TestAFailedAnswerSaysWhyRedacted: an approval the runner fails to
// record gets 500 with the cause, one the run refuses 409 with the
// reason, either with addresses and keys redacted, as a failed steer's.
// The store's failure went out as 409 with the store's address and key.
func TestAFailedAnswerSaysWhyRedacted(t *testing.T) {
	secret := errors.New(`append: Post "https://db.internal/x?token=s3cret": connection refused`)
	cases := []struct {
		name string
		err  error
		code int
		want string
	}{
		{"rejected", fmt.Errorf("%w: call %q is not awaiting approval", conductor.ErrRejected, "d1"), http.StatusConflict, "is not awaiting approval"},
		{"store", contract.WrapError(contract.KindStore, secret, "persist decision"), http.StatusInternalServerError, "connection refused"},
		// An agent whose store failed refuses what comes after with the
		// store's error.
		{"failed agent", fmt.Errorf("%w: %s", conductor.ErrRejected, secret), http.StatusConflict, "connection refused"},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			var on atomic.Bool
			h, srv := approvingSteerServer(t, make(chan []string, 16), func(r steerHumanRunner) Runner { return failingApprover{r, &on, tc.err} })
			user := map[string]any{"id": "m1", "role": "user", "content": "clean up"}
			awaitingAfterFirst(t, h, srv.URL, "t1", aguiBody("t1", []map[string]any{user}))
			on.Store(true)
			answer := map[string]any{"id": "a1", "role": "tool", "toolCallId": "d1", "content": `{"approved":true}`}
			code, body := post(t, srv.URL, aguiBody("t1", []map[string]any{user, answer}))
			wantRedactedFailure(t, "answer", code, body, tc.code, tc.want)
		})
	}
}
