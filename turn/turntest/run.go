package turntest

import (
	"context"
	"sync"
	"testing"
	"time"

	"github.com/batonrt/baton/contract"
	"github.com/batonrt/baton/turn"
)

// MaxRetries is the retry budget the suite gives the driver (never_ends
// gets none).
const MaxRetries = 2

// Run drives each case through a turn.Driver and checks the resulting
// signal and events. newProvider returns a provider that plays case c, or
// false when the provider's family does not support it (the case is then
// skipped). The provider must stop promptly when its context ends.
func Run(t *testing.T, newProvider func(t *testing.T, c Case) (turn.Provider, bool)) {
	t.Helper()
	for _, c := range Cases {
		t.Run(string(c), func(t *testing.T) {
			p, ok := newProvider(t, c)
			if !ok {
				t.Skipf("turntest: provider does not support case %s", c)
			}
			if p == nil {
				t.Fatalf("turntest: newProvider returned a nil provider for case %s", c)
			}
			o := drive(p, c)
			t.Run("response_chunk", func(t *testing.T) {
				for _, why := range responseFirst(o.attempts) {
					t.Error("turntest: " + why)
				}
			})
			checks[c](t, o)
		})
	}
}

// outcome is what one driven case produced.
type outcome struct {
	sig    contract.Signal
	resp   turn.Response
	events []contract.RunEvent
	sleeps []time.Duration
	// attempts holds the chunks of each stream, and of each plain call
	// a fallback made, in the order the driver asked for them.
	attempts [][]turn.Chunk
}

// Options returns the driver options the suite uses for case c: short
// timeouts, MaxRetries retries with tiny backoff, a fixed clock and jitter,
// and sleep, which records each wait and returns at once.
func Options(c Case, sleep func(context.Context, time.Duration) error) turn.Options {
	o := turn.Options{
		FirstChunkTimeout: 5 * time.Second,
		IdleTimeout:       5 * time.Second,
		TotalTimeout:      30 * time.Second,
		MaxRetries:        MaxRetries,
		BaseBackoff:       time.Millisecond,
		MaxBackoff:        10 * time.Millisecond,
		Now:               func() contract.Timestamp { return 1 },
		Sleep:             sleep,
		Rand:              func() float64 { return 0.5 },
	}
	if c == CaseNeverEnds {
		o.IdleTimeout = 200 * time.Millisecond
		o.MaxRetries = turn.NoRetries
	}
	return o
}

func drive(p turn.Provider, c Case) outcome {
	var (
		mu  sync.Mutex
		out outcome
	)
	sleep := func(ctx context.Context, d time.Duration) error {
		mu.Lock()
		out.sleeps = append(out.sleeps, d)
		mu.Unlock()
		return ctx.Err()
	}
	publish := func(ev *contract.RunEvent) {
		mu.Lock()
		out.events = append(out.events, *ev)
		mu.Unlock()
	}
	rec := record(p)
	sig, resp := turn.NewDriver(rec, Options(c, sleep)).RunReply(context.Background(), Request(c), publish)
	mu.Lock()
	defer mu.Unlock()
	out.sig, out.resp, out.attempts = sig, resp, rec.chunks()
	return out
}
