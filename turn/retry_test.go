package turn_test

import (
	"context"
	"fmt"
	"io"
	"iter"
	"syscall"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"

	"github.com/batonrt/baton/contract"
	"github.com/batonrt/baton/turn"
)

var hello = play{chunks: []turn.Chunk{text("Hello, "), text("world."), stop(contract.StopEndTurn)}}

func TestDriverRetries(t *testing.T) {
	tests := []struct {
		name       string
		plays      []play
		wantCalls  int
		wantSleeps []time.Duration
		wantFail   contract.FailureKind // empty: a reply is expected
		wantRetry  bool
	}{{
		name:       "429 honours Retry-After",
		plays:      []play{{err: &turn.ProviderError{Failure: contract.FailRateLimited, Status: 429, RetryAfter: 7 * time.Second}}, hello},
		wantCalls:  2,
		wantSleeps: []time.Duration{7 * time.Second},
	}, {
		name:       "5xx backs off exponentially with jitter, capped",
		plays:      []play{{err: &turn.ProviderError{Failure: contract.FailServer, Status: 500}}, {err: &turn.ProviderError{Failure: contract.FailServer, Status: 502}}, hello},
		wantCalls:  3,
		wantSleeps: []time.Duration{75 * time.Millisecond, 150 * time.Millisecond},
	}, {
		name:       "connection reset is retried",
		plays:      []play{{chunks: []turn.Chunk{text("partial ")}, err: fmt.Errorf("read: %w", syscall.ECONNRESET)}, hello},
		wantCalls:  2,
		wantSleeps: []time.Duration{75 * time.Millisecond},
	}, {
		name:       "stream cut mid tool call restarts cleanly",
		plays:      []play{{chunks: []turn.Chunk{callStart(0, "c", "search"), callArgs(0, `{"q":`)}}, hello},
		wantCalls:  2,
		wantSleeps: []time.Duration{75 * time.Millisecond},
	}, {
		name:       "gives up after MaxRetries",
		plays:      []play{{err: &turn.ProviderError{Failure: contract.FailServer, Status: 503}}},
		wantCalls:  3,
		wantSleeps: []time.Duration{75 * time.Millisecond, 150 * time.Millisecond},
		wantFail:   contract.FailServer,
		wantRetry:  true,
	}, {
		name:      "final failures are not retried",
		plays:     []play{{err: &turn.ProviderError{Failure: contract.FailInvalidRequest, Status: 400, Message: "bad"}}},
		wantCalls: 1,
		wantFail:  contract.FailInvalidRequest,
	}, {
		name:       "unexpected EOF is a broken stream",
		plays:      []play{{err: io.ErrUnexpectedEOF}},
		wantCalls:  3,
		wantSleeps: []time.Duration{75 * time.Millisecond, 150 * time.Millisecond},
		wantFail:   contract.FailStream,
		wantRetry:  true,
	}, {
		name:      "unknown errors are final",
		plays:     []play{{err: errBoom}},
		wantCalls: 1,
		wantFail:  contract.FailOther,
	}}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			r := &recorder{}
			f := newFake(tt.plays...)
			got := turn.NewDriver(f, testOptions(r)).Run(context.Background(), weatherReq, r.publish)
			if f.calls() != tt.wantCalls {
				t.Errorf("provider called %d times, want %d", f.calls(), tt.wantCalls)
			}
			if diff := cmp.Diff(tt.wantSleeps, r.sleeps); diff != "" {
				t.Errorf("sleeps mismatch (-want +got):\n%s", diff)
			}
			retries := 0
			for _, k := range r.kinds() {
				if k == contract.EvModelRetry {
					retries++
				}
			}
			if retries != tt.wantCalls-1 {
				t.Errorf("%d model_retry events, want %d", retries, tt.wantCalls-1)
			}
			if tt.wantFail == "" {
				rep, ok := got.(contract.ModelReplied)
				if !ok || rep.Reply.Text() != "Hello, world." {
					t.Fatalf("got %#v, want a clean reply \"Hello, world.\"", got)
				}
				return
			}
			mf, ok := got.(contract.ModelFailed)
			if !ok || mf.Failure != tt.wantFail || mf.Retryable != tt.wantRetry || mf.Message == "" {
				t.Fatalf("got %#v, want ModelFailed %s retryable=%v", got, tt.wantFail, tt.wantRetry)
			}
		})
	}
}

func TestDriverTimeouts(t *testing.T) {
	quick := func(o *turn.Options) {
		o.MaxRetries = turn.NoRetries
		o.FirstChunkTimeout, o.IdleTimeout = 30*time.Millisecond, 30*time.Millisecond
	}
	tests := []struct {
		name string
		play play
		opts func(*turn.Options)
		want string
	}{
		{"first chunk", play{hang: true}, quick, "no first chunk within 30ms"},
		{"idle", play{chunks: []turn.Chunk{text("x")}, hang: true}, quick, "no chunk for 30ms"},
		{"total", play{chunks: []turn.Chunk{text("x")}, hang: true}, func(o *turn.Options) {
			o.MaxRetries = turn.NoRetries
			o.TotalTimeout = 30 * time.Millisecond
		}, "total timeout 30ms exceeded"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			opts := testOptions(&recorder{})
			tt.opts(&opts)
			got := turn.NewDriver(newFake(tt.play), opts).Run(context.Background(), weatherReq, nil)
			want := contract.ModelFailed{Failure: contract.FailTimeout, Message: "turn: provider timeout: " + tt.want, Retryable: true, At: 42}
			if diff := cmp.Diff(contract.Signal(want), got); diff != "" {
				t.Errorf("mismatch (-want +got):\n%s", diff)
			}
		})
	}
}

// A call's watchdog keeps its timer for the next call when it stopped
// before firing; the next call's watchdog, on that timer, still cuts a
// stream that goes quiet, call after call.
func TestDriverTimesOutAfterCallsThatFinished(t *testing.T) {
	opts := testOptions(&recorder{})
	opts.MaxRetries = turn.NoRetries
	opts.FirstChunkTimeout, opts.IdleTimeout = 30*time.Millisecond, 30*time.Millisecond
	hang := play{chunks: []turn.Chunk{text("x")}, hang: true}
	d := turn.NewDriver(newFake(hello, hang, hello, hello, hang), opts)
	want := []string{"", "no chunk for 30ms", "", "", "no chunk for 30ms"}
	for i, w := range want {
		ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
		got := d.Run(ctx, weatherReq, nil)
		cancel()
		if w == "" {
			if r, ok := got.(contract.ModelReplied); !ok || r.Reply.Text() != "Hello, world." {
				t.Fatalf("call %d: got %#v, want the reply", i, got)
			}
			continue
		}
		if f, ok := got.(contract.ModelFailed); !ok || f.Failure != contract.FailTimeout || f.Message != "turn: provider timeout: "+w {
			t.Fatalf("call %d: got %#v, want the watchdog's timeout %q", i, got, w)
		}
	}
}

func TestDriverTimeoutAfterStopKeepsReply(t *testing.T) {
	opts := testOptions(&recorder{})
	opts.IdleTimeout = 20 * time.Millisecond
	p := newFake(play{chunks: []turn.Chunk{text("done"), stop(contract.StopEndTurn)}, hang: true})
	got := turn.NewDriver(p, opts).Run(context.Background(), weatherReq, nil)
	if r, ok := got.(contract.ModelReplied); !ok || r.Reply.Text() != "done" {
		t.Fatalf("got %#v, want the reply completed before the hang", got)
	}
}

func TestDriverRetriesIdleTimeout(t *testing.T) {
	opts := testOptions(&recorder{})
	opts.IdleTimeout = 20 * time.Millisecond
	p := newFake(play{chunks: []turn.Chunk{text("stuck")}, hang: true}, hello)
	got := turn.NewDriver(p, opts).Run(context.Background(), weatherReq, nil)
	if r, ok := got.(contract.ModelReplied); !ok || r.Reply.Text() != "Hello, world." {
		t.Fatalf("got %#v, want a clean retry after the idle timeout", got)
	}
}

func TestDefaultSleepHonoursContext(t *testing.T) {
	ctx, cancel := context.WithCancel(context.Background())
	p := newFake(play{err: &turn.ProviderError{Failure: contract.FailRateLimited, RetryAfter: time.Minute}})
	got := turn.NewDriver(p, turn.Options{Now: clock}).Run(ctx, weatherReq, func(ev *contract.RunEvent) {
		if ev.Kind == contract.EvModelRetry {
			cancel()
		}
	})
	want := contract.ModelFailed{Failure: contract.FailOther, Message: "cancelled", At: 42}
	if diff := cmp.Diff(contract.Signal(want), got); diff != "" {
		t.Errorf("mismatch (-want +got):\n%s", diff)
	}
}

func TestRetryAfterBeyondTotalTimeoutFailsAtOnce(t *testing.T) {
	r := &recorder{}
	p := newFake(play{err: &turn.ProviderError{Failure: contract.FailRateLimited, Status: 429, RetryAfter: time.Hour}}, hello)
	opts := testOptions(r)
	opts.MaxRetryWait, opts.RetryBudget = -1, -1
	got := turn.NewDriver(p, opts).Run(context.Background(), weatherReq, r.publish)
	f, ok := got.(contract.ModelFailed)
	if !ok || f.Failure != contract.FailRateLimited || !f.Retryable || len(r.sleeps) != 0 || p.calls() != 1 {
		t.Fatalf("got %#v after %d sleeps and %d calls, want rate_limited at once", got, len(r.sleeps), p.calls())
	}
}

// deadlineSeer reports the deadline its stream's context carries and the
// error that context ends with.
type deadlineSeer struct {
	deadline time.Time
	has      bool
	err      error
}

func (p *deadlineSeer) Stream(ctx context.Context, req contract.ModelRequest) iter.Seq2[turn.Chunk, error] {
	return func(yield func(turn.Chunk, error) bool) {
		p.deadline, p.has = ctx.Deadline()
		<-ctx.Done()
		p.err = ctx.Err()
		yield(turn.Chunk{}, ctx.Err())
	}
}

// The provider streams under the total deadline, kept by the attempt's
// watchdog: its context reports the deadline, the sooner of the caller's
// and the total, and ends with context.DeadlineExceeded when it comes.
func TestProviderContextCarriesTheTotalDeadline(t *testing.T) {
	for _, tc := range []struct {
		name  string
		outer time.Duration // 0: no deadline on the caller's context
		total time.Duration
	}{
		{"total", 0, 40 * time.Millisecond},
		{"total sooner than the caller's", time.Hour, 40 * time.Millisecond},
		{"caller's sooner than the total", 40 * time.Millisecond, time.Hour},
	} {
		t.Run(tc.name, func(t *testing.T) {
			ctx := context.Background()
			if tc.outer > 0 {
				var cancel context.CancelFunc
				ctx, cancel = context.WithTimeout(ctx, tc.outer)
				defer cancel()
			}
			opts := testOptions(&recorder{})
			opts.MaxRetries = turn.NoRetries
			opts.TotalTimeout = tc.total
			p := &deadlineSeer{}
			start := time.Now()
			turn.NewDriver(p, opts).Run(ctx, weatherReq, nil)
			soonest := tc.total
			if tc.outer > 0 {
				soonest = min(soonest, tc.outer)
			}
			want := start.Add(soonest)
			if !p.has || p.deadline.Before(want.Add(-time.Second)) || p.deadline.After(want.Add(time.Second)) {
				t.Errorf("deadline %v (set %v), want about %v", p.deadline, p.has, want)
			}
			if p.err != context.DeadlineExceeded {
				t.Errorf("the stream's context ended with %v, want %v", p.err, context.DeadlineExceeded)
			}
		})
	}
}
