package turn_test

import (
	"context"
	"math"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"

	"github.com/batonrt/baton/contract"
	"github.com/batonrt/baton/turn"
)

// TestRetryWaitsAreBounded: a server's Retry-After is honoured up to the
// longest single wait, and the waits of one call add up to at most the
// retry budget; past either the call fails at once, saying what the server
// asked for, rather than holding the run for as long as the server likes.
// The total timeout is off in every case, so only these bounds apply.
func TestRetryWaitsAreBounded(t *testing.T) {
	limited := func(wait time.Duration) play {
		return play{err: &turn.ProviderError{Failure: contract.FailRateLimited, Status: 429, RetryAfter: wait}}
	}
	busy := func(wait time.Duration) play {
		return play{err: &turn.ProviderError{Failure: contract.FailServer, Status: 503, RetryAfter: wait}}
	}
	tests := []struct {
		name       string
		opts       func(*turn.Options)
		plays      []play
		wantSleeps []time.Duration
		wantFail   string // empty: the reply is expected
	}{{
		name:     "a day's Retry-After fails at once",
		plays:    []play{limited(24 * time.Hour), hello},
		wantFail: "turn: provider rate_limited (status 429); not retried: the server asked to wait 24h0m0s, more than the longest wait allowed (2m0s)",
	}, {
		name:     "a date far off fails at once",
		plays:    []play{busy(time.Duration(math.MaxInt64)), hello},
		wantFail: "turn: provider server (status 503); not retried: the server asked to wait 2562047h47m16.854775807s, more than the longest wait allowed (2m0s)",
	}, {
		name:       "a wait within the bounds is honoured",
		plays:      []play{busy(90 * time.Second), hello},
		wantSleeps: []time.Duration{90 * time.Second},
	}, {
		name:       "waits that add up past the budget stop the call",
		plays:      []play{limited(2 * time.Minute), limited(2 * time.Minute), limited(2 * time.Minute), hello},
		wantSleeps: []time.Duration{2 * time.Minute, 2 * time.Minute},
		wantFail:   "turn: provider rate_limited (status 429); not retried: the server asked to wait 2m0s, which would take this call's waits to 6m0s, past its retry budget (5m0s)",
	}, {
		name:     "the longest wait is configurable",
		opts:     func(o *turn.Options) { o.MaxRetryWait = 10 * time.Second },
		plays:    []play{limited(11 * time.Second), hello},
		wantFail: "turn: provider rate_limited (status 429); not retried: the server asked to wait 11s, more than the longest wait allowed (10s)",
	}, {
		name:       "the budget is configurable",
		opts:       func(o *turn.Options) { o.RetryBudget = 15 * time.Second },
		plays:      []play{limited(10 * time.Second), limited(10 * time.Second), hello},
		wantSleeps: []time.Duration{10 * time.Second},
		wantFail:   "turn: provider rate_limited (status 429); not retried: the server asked to wait 10s, which would take this call's waits to 20s, past its retry budget (15s)",
	}, {
		name:       "back-off counts against the budget",
		opts:       func(o *turn.Options) { o.RetryBudget = 200 * time.Millisecond },
		plays:      []play{busy(0), busy(0), hello},
		wantSleeps: []time.Duration{75 * time.Millisecond},
		wantFail:   "turn: provider server (status 503); not retried: backing off 150ms would take this call's waits to 225ms, past its retry budget (200ms)",
	}, {
		name:     "the total timeout still bounds a wait",
		opts:     func(o *turn.Options) { o.TotalTimeout = 20 * time.Second },
		plays:    []play{limited(30 * time.Second), hello},
		wantFail: "turn: provider rate_limited (status 429); not retried: the server asked to wait 30s, which would outlast the call's total timeout (20s)",
	}, {
		name:       "negative bounds switch them off",
		opts:       func(o *turn.Options) { o.MaxRetryWait, o.RetryBudget = -1, -1 },
		plays:      []play{limited(24 * time.Hour), hello},
		wantSleeps: []time.Duration{24 * time.Hour},
	}}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			r := &recorder{}
			opts := testOptions(r)
			opts.TotalTimeout = -1
			opts.MaxRetries = 5
			if tt.opts != nil {
				tt.opts(&opts)
			}
			got := turn.NewDriver(newFake(tt.plays...), opts).Run(context.Background(), weatherReq, r.publish)
			if diff := cmp.Diff(tt.wantSleeps, r.sleeps); diff != "" {
				t.Errorf("sleeps mismatch (-want +got):\n%s", diff)
			}
			if tt.wantFail == "" {
				if rep, ok := got.(contract.ModelReplied); !ok || rep.Reply.Text() != "Hello, world." {
					t.Errorf("got %#v, want the reply", got)
				}
				return
			}
			f, _ := got.(contract.ModelFailed)
			want := contract.ModelFailed{Failure: f.Failure, Message: tt.wantFail, Retryable: true, At: 42}
			if diff := cmp.Diff(contract.Signal(want), got); diff != "" {
				t.Errorf("mismatch (-want +got):\n%s", diff)
			}
		})
	}
}

// TestUnboundedWaitEndsOnCancel: with the bounds switched off, a wait of
// a day still ends the moment the caller's context is cancelled.
func TestUnboundedWaitEndsOnCancel(t *testing.T) {
	ctx, cancel := context.WithCancel(context.Background())
	p := newFake(play{err: &turn.ProviderError{Failure: contract.FailRateLimited, Status: 429, RetryAfter: 24 * time.Hour}}, hello)
	opts := turn.Options{Now: clock, TotalTimeout: -1, MaxRetryWait: -1, RetryBudget: -1}
	got := turn.NewDriver(p, opts).Run(ctx, weatherReq, func(ev *contract.RunEvent) {
		if ev.Kind == contract.EvModelRetry {
			cancel()
		}
	})
	want := contract.ModelFailed{Failure: contract.FailOther, Message: "cancelled", At: 42}
	if diff := cmp.Diff(contract.Signal(want), got); diff != "" {
		t.Errorf("mismatch (-want +got):\n%s", diff)
	}
}
