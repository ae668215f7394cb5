package main

import (
	"time"

	"github.com/batonrt/baton/conductor"
	"github.com/batonrt/baton/turn"
)

// modelFlags bound how long baton waits for a model and how often it
// tries again; run and serve share them.
type modelFlags struct {
	firstChunk, idle, total time.Duration
	retryWait, retryBudget  time.Duration
	retries                 int
	textCalls               bool
}

func addModelFlags(fs *flagSet) *modelFlags {
	m := &modelFlags{}
	fs.DurationVar(&m.firstChunk, "first-chunk-timeout", turn.DefaultFirstChunkTimeout, "give up on a model call that sends nothing for this long")
	fs.DurationVar(&m.idle, "stall-timeout", turn.DefaultIdleTimeout, "give up on a model reply that stalls this long between chunks")
	fs.DurationVar(&m.total, "model-timeout", turn.DefaultTotalTimeout, "give up on one model call, retries included, after this long")
	fs.IntVar(&m.retries, "retries", turn.DefaultMaxRetries, "how many times a failed model call is tried again (0 for none)")
	fs.DurationVar(&m.retryWait, "max-retry-wait", turn.DefaultMaxRetryWait, "longest wait before a retry; a server asking (Retry-After) for longer fails the call at once (0 for no bound)")
	fs.DurationVar(&m.retryBudget, "retry-budget", turn.DefaultRetryBudget, "most a model call waits between its tries, added up (0 for no bound)")
	fs.BoolVar(&m.textCalls, "text-tool-calls", false, "read a reply that is only a JSON tool call as that call (for local models that write tool calls as text)")
	return m
}

// options checks the flags and returns the turn driver's options.
func (m *modelFlags) options(fs *flagSet) (conductor.Model, error) {
	// Checked in the order the flags are listed, so that of two bad
	// ones the same is named every time.
	for _, f := range []struct {
		name string
		d    time.Duration
	}{{"first-chunk-timeout", m.firstChunk}, {"stall-timeout", m.idle}, {"model-timeout", m.total}} {
		if f.d <= 0 {
			return conductor.Model{}, usagef(fs.FlagSet, "%s: --%s must be positive, got %s", fs.Name(), f.name, f.d)
		}
	}
	o := conductor.Model{
		FirstChunkTimeout: m.firstChunk, IdleTimeout: m.idle, TotalTimeout: m.total,
		MaxRetries: m.retries, MaxRetryWait: m.retryWait, RetryBudget: m.retryBudget,
		TextToolCalls: m.textCalls,
	}
	// Zero on the command line reads as "no bound", as --retries 0 reads
	// as "none"; the driver spells both with a negative value, its zero
	// being the default.
	for _, f := range []struct {
		name string
		d    *time.Duration
	}{{"max-retry-wait", &o.MaxRetryWait}, {"retry-budget", &o.RetryBudget}} {
		switch {
		case *f.d < 0:
			return conductor.Model{}, usagef(fs.FlagSet, "%s: --%s must be 0 (no bound) or more, got %s", fs.Name(), f.name, *f.d)
		case *f.d == 0:
			*f.d = -1
		}
	}
	switch {
	case m.retries < 0:
		return conductor.Model{}, usagef(fs.FlagSet, "%s: --retries must be 0 or more, got %d", fs.Name(), m.retries)
	case m.retries == 0:
		o.MaxRetries = turn.NoRetries
	}
	return o, nil
}
