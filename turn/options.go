package turn

import (
	"context"
	"io"
	"log/slog"
	"math/rand/v2"
	"time"

	"github.com/batonrt/baton/contract"
)

// Defaults for Options fields left zero.
const (
	DefaultFirstChunkTimeout = 60 * time.Second
	DefaultIdleTimeout       = 60 * time.Second
	DefaultTotalTimeout      = 10 * time.Minute
	DefaultMaxRetries        = 3
	DefaultBaseBackoff       = 500 * time.Millisecond
	DefaultMaxBackoff        = 30 * time.Second
	// A minute or two covers the per-minute windows of providers' rate
	// limits; a server asking for more is better reported than obeyed.
	DefaultMaxRetryWait = 2 * time.Minute
	DefaultRetryBudget  = 5 * time.Minute
)

// NoRetries as Options.MaxRetries makes one attempt only; zero means
// DefaultMaxRetries.
const NoRetries = -1

// Options tune a Driver. Zero fields take the defaults above; a negative
// timeout switches that timeout off.
type Options struct {
	FirstChunkTimeout, IdleTimeout, TotalTimeout time.Duration
	// MaxRetries is how many attempts follow a retryable failure; zero
	// means DefaultMaxRetries and NoRetries means none.
	MaxRetries int
	// BaseBackoff doubles per retry up to MaxBackoff; the wait is drawn
	// from its upper half so concurrent clients spread out.
	BaseBackoff, MaxBackoff time.Duration
	// MaxRetryWait bounds one wait between attempts: a server that asks
	// (Retry-After) for a longer one fails the call at once, with the
	// wait it asked for in the message, rather than holding the run that
	// long; the driver's own back-off is cut to it. Zero means
	// DefaultMaxRetryWait; negative, no bound.
	MaxRetryWait time.Duration
	// RetryBudget bounds the waits between one call's attempts, added
	// up: a retry whose wait would take them past it fails the call
	// instead. Zero means DefaultRetryBudget; negative, no bound. The
	// total timeout, when on, bounds the waits too.
	RetryBudget time.Duration
	// Now stamps signals and events; default the system clock.
	Now func() contract.Timestamp
	// Sleep waits between attempts; default a timer honouring ctx.
	Sleep func(ctx context.Context, d time.Duration) error
	// Rand returns jitter in [0, 1); default math/rand/v2.
	Rand   func() float64
	Logger *slog.Logger
	// TextToolCalls reads a reply with no native tool call whose whole
	// text is one JSON tool call naming an offered tool ({"name": ...,
	// "arguments": {...}}, bare or fenced) as that call. It is for weak
	// and local models that write tool calls as text; leave it off for
	// models that call tools natively, whose JSON answers are answers.
	TextToolCalls bool
	// WaitingAfter, when positive, publishes a waiting event each time a
	// model call has streamed nothing for that long, so a UI can show the
	// run is alive while a slow local model thinks.
	WaitingAfter time.Duration
	// NoFallback keeps a streaming call that failed before its first
	// chunk from being retried at once without streaming on a provider
	// that offers it (a Completer).
	NoFallback bool
	// Estimate, when set, counts a reply's tokens: the driver stamps the
	// count on the reply's turn (contract.Turn.Tokens) before it returns
	// the signal, so the reply is counted on the goroutine that ran the
	// call and its signal is made once.
	Estimate func(contract.Turn) int
}

func (o Options) withDefaults() Options {
	dur := func(v *time.Duration, d time.Duration) {
		if *v == 0 {
			*v = d
		}
	}
	dur(&o.FirstChunkTimeout, DefaultFirstChunkTimeout)
	dur(&o.IdleTimeout, DefaultIdleTimeout)
	dur(&o.TotalTimeout, DefaultTotalTimeout)
	dur(&o.BaseBackoff, DefaultBaseBackoff)
	dur(&o.MaxBackoff, DefaultMaxBackoff)
	dur(&o.MaxRetryWait, DefaultMaxRetryWait)
	dur(&o.RetryBudget, DefaultRetryBudget)
	switch {
	case o.MaxRetries == 0:
		o.MaxRetries = DefaultMaxRetries
	case o.MaxRetries < 0:
		o.MaxRetries = 0
	}
	if o.Now == nil {
		o.Now = func() contract.Timestamp { return contract.TimestampOf(time.Now()) }
	}
	if o.Sleep == nil {
		o.Sleep = sleep
	}
	if o.Rand == nil {
		o.Rand = rand.Float64
	}
	if o.Logger == nil {
		o.Logger = slog.New(slog.NewTextHandler(io.Discard, nil))
	}
	return o
}

func sleep(ctx context.Context, d time.Duration) error {
	if d <= 0 {
		return ctx.Err()
	}
	t := time.NewTimer(d)
	defer t.Stop()
	select {
	case <-t.C:
		return nil
	case <-ctx.Done():
		return ctx.Err()
	}
}

// backoff is the wait before retry number n (0-based): exponential, capped,
// with its lower half jittered away.
func (o Options) backoff(n int) time.Duration {
	d := o.BaseBackoff
	for i := 0; i < n && d < o.MaxBackoff; i++ {
		d *= 2
	}
	d = min(d, o.MaxBackoff)
	half := d / 2
	return half + time.Duration(o.Rand()*float64(d-half))
}
