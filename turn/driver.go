package turn

import (
	"context"
	"errors"
	"fmt"
	"log/slog"
	"sync"
	"time"

	"github.com/batonrt/baton/contract"
)

// Driver performs model calls through a Provider. It is safe for
// concurrent use; each Run is independent.
type Driver struct {
	p Provider
	o Options

	// verified is the newest history found well formed. A run's next
	// request usually extends it, so only the new turns need a look.
	mu       sync.Mutex
	verified contract.History
	// names are the tool names of the newest call (see toolNames).
	names []string
}

// NewDriver returns a driver over p; zero options take their defaults.
func NewDriver(p Provider, opts Options) *Driver {
	return &Driver{p: p, o: opts.withDefaults()}
}

// Run performs one model call with retries and returns exactly one
// signal: contract.ModelReplied or contract.ModelFailed. publish, which may
// be nil, receives the deltas as events (text, thinking and tool-call
// deltas, and a model_retry with the reason before each new attempt, which
// tells subscribers to drop the partial output they saw). The event is
// the driver's: publish may change it, and copies what it keeps. A
// cancelled ctx returns promptly with ModelFailed{Failure: FailOther,
// Message: "cancelled"}.
func (d *Driver) Run(ctx context.Context, req contract.ModelRequest, publish func(*contract.RunEvent)) contract.Signal {
	sig, _ := d.RunReply(ctx, req, publish)
	return sig
}

// RunReply is Run, returning with a reply what the provider said of it
// (ChunkResponse): the model that answered and the reply's id, kept out
// of the signal, which is recorded and replayed without them.
func (d *Driver) RunReply(ctx context.Context, req contract.ModelRequest, publish func(*contract.RunEvent)) (contract.Signal, Response) {
	if d == nil || d.p == nil {
		return contract.ModelFailed{Failure: contract.FailInvalidRequest, Message: "turn: driver has no provider"}, Response{}
	}
	req.History = d.sanitize(req.History)
	known := d.toolNames(req.Tools)
	var deadline time.Time // zero: no total timeout
	if d.o.TotalTimeout >= 0 {
		deadline = time.Now().Add(d.o.TotalTimeout)
	}
	// An attempt keeps the total deadline with its watchdog's timer, so
	// the common call, answered at the first attempt, makes one context
	// and one timer. total, ctx bounded by the deadline, is made only
	// when the back-off between attempts or the fallback needs it.
	var (
		totalCtx    context.Context
		totalCancel context.CancelFunc
	)
	total := func() context.Context {
		if totalCtx == nil {
			totalCtx, totalCancel = withDeadline(ctx, deadline)
		}
		return totalCtx
	}
	defer func() {
		if totalCancel != nil {
			totalCancel()
		}
	}()
	publish, stopPulse := d.pulse(publish)
	defer stopPulse()
	fellBack := false
	var waited time.Duration // the waits between attempts so far
	for attempt := 0; ; attempt++ {
		// The attempt's context is its own, as a provider may keep it past
		// the stream; its assembler, 1 KiB of room for a usual reply, is
		// taken at the first chunk, so a call waiting for its model holds
		// none, and used again once the reply is copied out of it.
		actx := &attemptCtx{deadline: deadline, known: known, now: d.o.Now, publish: publish, textCalls: d.o.TextToolCalls}
		err := d.attempt(ctx, &req, actx)
		if err != nil && !fellBack {
			fellBack, err = d.fallback(ctx, deadline, total, &req, err, actx.assembler(), publish)
		}
		if err == nil {
			asm := actx.assembler()
			sig, resp := d.replied(asm), asm.response
			actx.release()
			return sig, resp
		}
		actx.release()
		var sig contract.Signal
		if sig, waited = d.retry(ctx, deadline, total, attempt, waited, err, publish); sig != nil {
			return sig, Response{}
		}
	}
}

// assembler returns the attempt's assembler, taken from the pool and
// emptied at the first call.
func (c *attemptCtx) assembler() *assembler {
	if c.asm == nil {
		c.asm = assemblers.Get().(*assembler)
		c.asm.reset(c.known, c.now, c.publish)
		c.asm.textCalls = c.textCalls
	}
	return c.asm
}

// release puts the attempt's assembler back, if it took one.
func (c *attemptCtx) release() {
	if c.asm != nil {
		assemblers.Put(c.asm)
		c.asm = nil
	}
}

// assemblers hold the assemblers of attempts that ended, emptied when
// taken again (reset): what a reply keeps is copied out of its assembler
// (reply), and a stream that calls yield after it returned reaches it no
// more, as the attempt's context is cancelled by then (attemptCtx.yield).
var assemblers = sync.Pool{New: func() any { return new(assembler) }}

// replied is the signal of an attempt that ended with a reply. Run's
// frame is on the stack for as long as the model takes, so what follows
// the stream is done in functions of their own.
//
//go:noinline
func (d *Driver) replied(a *assembler) contract.Signal {
	reply, stop := a.reply()
	if d.o.Estimate != nil {
		reply.Tokens = d.o.Estimate(reply)
	}
	return contract.ModelReplied{Reply: reply, Usage: a.usage, Stop: stop, At: d.o.Now()}
}

// retry waits before attempt number attempt+1 after err, or returns the
// signal that ends the call instead. waited is what the call waited
// between attempts before; retry returns it with this wait added.
//
//go:noinline
func (d *Driver) retry(ctx context.Context, deadline time.Time, total func() context.Context, attempt int, waited time.Duration, err error, publish func(*contract.RunEvent)) (contract.Signal, time.Duration) {
	pe := d.classify(ctx, deadline, err)
	if pe == nil {
		return d.failed(contract.FailOther, "cancelled", false), waited
	}
	if !pe.Retryable() || attempt >= d.o.MaxRetries || passed(deadline) {
		return d.failed(pe.Failure, pe.Error(), pe.Retryable()), waited
	}
	// The back-off is the driver's own choice, which MaxRetryWait bounds;
	// only a server asking for longer fails the call (refuseWait).
	wait := d.o.backoff(attempt)
	if d.o.MaxRetryWait > 0 {
		wait = min(wait, d.o.MaxRetryWait)
	}
	if pe.RetryAfter > 0 {
		wait = pe.RetryAfter
	}
	if why := d.o.refuseWait(pe, wait, waited, deadline); why != "" {
		return d.failed(pe.Failure, pe.Error()+"; not retried: "+why, true), waited
	}
	d.o.Logger.LogAttrs(ctx, slog.LevelWarn, "turn: retrying model call", slogAttrs(attempt+1, wait, pe)...)
	if publish != nil {
		publish(&contract.RunEvent{Kind: contract.EvModelRetry, Text: pe.Error(), At: d.o.Now()})
	}
	if err := d.o.Sleep(total(), wait); err != nil {
		if pe := d.classify(ctx, deadline, err); pe != nil {
			return d.failed(pe.Failure, pe.Error(), false), waited
		}
		return d.failed(contract.FailOther, "cancelled", false), waited
	}
	return nil, waited + wait
}

// passed reports whether the total deadline, if there is one, has come.
func passed(deadline time.Time) bool {
	return !deadline.IsZero() && !time.Now().Before(deadline)
}

func (d *Driver) failed(kind contract.FailureKind, msg string, retryable bool) contract.Signal {
	return contract.ModelFailed{Failure: kind, Message: msg, Retryable: retryable, At: d.o.Now()}
}

// attempt streams once into ctx's assembler, under the watchdog, which
// cuts the stream when the first chunk or the next one takes too long or
// the total deadline comes.
func (d *Driver) attempt(outer context.Context, req *contract.ModelRequest, ctx *attemptCtx) error {
	cctx, cancel := context.WithCancelCause(outer)
	defer cancel(nil)
	ctx.Context = cctx
	w := &ctx.watchdog
	w.start(d.o.FirstChunkTimeout, d.o.IdleTimeout, ctx.deadline, cancel)
	defer w.stop()
	// The stream is called with the context's own yield rather than
	// ranged over, so the loop's state lives in the context already
	// allocated instead of in variables of its own on the heap.
	if err := d.stream(ctx, req); err != nil {
		return err
	}
	if ctx.malformed != nil {
		return &ProviderError{Failure: contract.FailStream, Message: "malformed stream", Err: ctx.malformed}
	}
	streamErr := ctx.streamErr
	stopped := ctx.asm != nil && ctx.asm.stopped
	if cause := context.Cause(ctx); isQuiet(cause) && !stopped {
		return cause
	}
	if stopped {
		// A stop was seen: whatever came after it (a late error, a hang
		// cut by the watchdog) cannot spoil a complete reply.
		return nil
	}
	if streamErr != nil {
		return streamErr
	}
	if err := ctx.Err(); err != nil {
		return err
	}
	return &ProviderError{Failure: contract.FailStream, Message: "stream ended before a stop"}
}

// attemptCtx is the context a provider streams under: cancelled by the
// caller, the watchdog or the total deadline, which it reports as its
// own, as a context made with that deadline would.
type attemptCtx struct {
	context.Context
	deadline time.Time // zero: none beyond the caller's
	watchdog watchdog

	// The stream's fold (see yield), owned by the provider's goroutine,
	// and afterwards by the call; nil until the first chunk, made from
	// the fields after it (see assembler).
	asm       *assembler
	known     []string
	now       func() contract.Timestamp
	publish   func(*contract.RunEvent)
	textCalls bool
	ended     bool  // yield said stop
	streamErr error // the error the stream ended with
	malformed error // the chunk that broke the stream's protocol
}

// yield folds one chunk of the stream into the reply; false ends the
// stream. A provider that streams on after cancellation, or after being
// told to stop, is not listened to: nothing more of it reaches the reply
// or events.
func (c *attemptCtx) yield(ch Chunk, err error) bool {
	switch {
	case c.ended:
		return false
	case err != nil:
		c.streamErr = err
	case c.Err() != nil && !c.closing(ch):
	default:
		c.watchdog.fed()
		if c.malformed = c.assembler().add(ch); c.malformed == nil {
			return true
		}
	}
	c.ended = true
	return false
}

// closing reports whether ch closes a reply (its usage or its stop,
// which decoders hold back until their stream ends) that comes after the
// watchdog cut a stream gone quiet: the reply's end had arrived, and
// the silence after it spoils nothing.
func (c *attemptCtx) closing(ch Chunk) bool {
	return (ch.Kind == ChunkUsage || ch.Kind == ChunkStop) && isQuiet(context.Cause(c.Context))
}

func (c *attemptCtx) Deadline() (time.Time, bool) {
	outer, ok := c.Context.Deadline()
	if c.deadline.IsZero() || ok && outer.Before(c.deadline) {
		return outer, ok
	}
	return c.deadline, true
}

func (c *attemptCtx) Err() error {
	err := c.Context.Err()
	if err != nil && context.Cause(c.Context) == context.DeadlineExceeded {
		return context.DeadlineExceeded
	}
	return err
}

// classify turns an attempt's error into a ProviderError, or nil when the
// caller's ctx was cancelled.
func (d *Driver) classify(outer context.Context, deadline time.Time, err error) *ProviderError {
	if outer.Err() != nil {
		return nil
	}
	var pe *ProviderError
	switch {
	case errors.As(err, &pe):
		return pe
	case passed(deadline):
		return &ProviderError{Failure: contract.FailTimeout, Message: fmt.Sprintf("total timeout %s exceeded", d.o.TotalTimeout)}
	case isQuiet(err):
		return &ProviderError{Failure: contract.FailTimeout, Message: err.Error()}
	}
	return classifyTransport(err)
}

// withDeadline is ctx bounded by deadline, or only cancellable when the
// deadline is zero.
func withDeadline(ctx context.Context, deadline time.Time) (context.Context, context.CancelFunc) {
	if deadline.IsZero() {
		return context.WithCancel(ctx)
	}
	return context.WithDeadline(ctx, deadline)
}

// toolNames returns the names of tools. The list the last call made is
// kept, since a run offers the same tools on every call; it is only ever
// read, so calls in flight at once may share it.
func (d *Driver) toolNames(tools []contract.ToolDescriptor) []string {
	d.mu.Lock()
	last := d.names
	d.mu.Unlock()
	if len(last) == len(tools) {
		same := true
		for i, t := range tools {
			if last[i] != t.Name {
				same = false
				break
			}
		}
		if same {
			return last
		}
	}
	names := make([]string, len(tools))
	for i, t := range tools {
		names[i] = t.Name
	}
	d.mu.Lock()
	d.names = names
	d.mu.Unlock()
	return names
}

// sanitize is Sanitize that checks only what was appended since the last
// history it found well formed: a well-formed history never ends with
// unanswered calls, so its extension is well formed exactly when the new
// turns are, read on their own.
func (d *Driver) sanitize(h contract.History) contract.History {
	d.mu.Lock()
	verified := d.verified
	d.mu.Unlock()
	if h.GrewFrom(verified) && wellFormedBackward(h.Backward(), verified.Len()) {
		d.remember(h)
		return h
	}
	out := Sanitize(h)
	d.remember(out)
	return out
}

func (d *Driver) remember(h contract.History) {
	d.mu.Lock()
	d.verified = h
	d.mu.Unlock()
}
