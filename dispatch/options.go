package dispatch

import (
	"log/slog"
	"time"

	"github.com/batonrt/baton/contract"
)

// DefaultOutputCap is the output cap when Options.OutputCap is zero.
const DefaultOutputCap = 1 << 20

// DefaultGrace is how long a cancelled tool keeps its slot by default.
const DefaultGrace = time.Second

// Options configure a Scheduler. Zero values take the defaults.
type Options struct {
	// Limit bounds the calls running at once; default
	// contract.DefaultToolConcurrency. A negative Limit sets no bound and
	// holds no call back, sequential or not: every call starts when it is
	// dispatched, for a caller that decides itself what may run.
	Limit int
	// DefaultTimeout bounds a call whose descriptor has no Timeout;
	// default contract.DefaultToolTimeout.
	DefaultTimeout time.Duration
	// OutputCap bounds an outcome's content in bytes, marker included,
	// once bytes that are not UTF-8 are replaced; default
	// DefaultOutputCap.
	OutputCap int
	// Grace is how long a timed-out or cancelled tool keeps its slot while
	// it winds down. Its outcome is delivered at once; past the grace the
	// tool counts as a straggler and its slot is freed, so one tool that
	// ignores its context cannot stall the queue. Default DefaultGrace.
	Grace time.Duration
	// Logger receives panics (with their stack) and stragglers; nil
	// discards.
	Logger *slog.Logger
}

func (o Options) withDefaults() Options {
	if o.Limit == 0 {
		o.Limit = contract.DefaultToolConcurrency
	}
	if o.DefaultTimeout <= 0 {
		o.DefaultTimeout = contract.DefaultToolTimeout
	}
	if o.OutputCap <= 0 {
		o.OutputCap = DefaultOutputCap
	}
	if o.Grace <= 0 {
		o.Grace = DefaultGrace
	}
	if o.Logger == nil {
		o.Logger = slog.New(slog.DiscardHandler)
	}
	return o
}
