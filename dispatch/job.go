package dispatch

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"log/slog"
	"math"
	"runtime/debug"
	"strings"
	"sync/atomic"
	"time"

	"github.com/batonrt/baton/contract"
)

type jobState uint8

const (
	stateQueued  jobState = iota
	stateRunning          // started, outcome not yet delivered
	stateDone             // outcome delivered or being delivered
)

// toolPhase says who answers a started call: the worker when the tool
// returns first, or expire when the call's context ends first.
type toolPhase uint8

const (
	phaseRunning toolPhase = iota
	phaseReturned
	phaseExpired
)

// job is a Job in flight. Its small fields sit together: one is made
// for every call.
type job struct {
	Job
	s       *Scheduler
	dctx    context.Context
	name    string
	timeout time.Duration
	stopCtx func() bool // stops the AfterFunc on dctx; set in Dispatch

	// Parts left before the job is finished: its delivery, and its worker
	// once started.
	pending atomic.Int32
	seq     bool

	// Guarded by s.mu; the ones set by pump are read freely by the worker,
	// which pump starts after setting them.
	state jobState
	phase toolPhase
	slot  bool // holds one of the scheduler's slots
	seqNo uint64
	// started is when the call started, as an offset from origin; zero
	// before. An offset rather than a time.Time, and the grace timer of a
	// call that outlives its context kept in the scheduler's straggling
	// map, keep a job in the 288-byte size class, one allocation of it a
	// call.
	started time.Duration
	// heapAt is j's place among the scheduler's deadlines, -1 when not
	// there.
	heapAt int

	cctx callCtx // the context the tool sees, and the call's cancellation
}

// origin is the monotonic clock's reading jobs' start times are offsets
// from.
var origin = time.Now()

// sinceOrigin reads the monotonic clock, as an offset from origin.
func sinceOrigin() time.Duration { return time.Since(origin) }

// due is when the started call times out, as an offset from origin; a
// timeout too long to add (math.MaxInt64 for "never", say) is the
// furthest offset there is.
func (j *job) due() time.Duration {
	if j.timeout > math.MaxInt64-j.started {
		return math.MaxInt64
	}
	return j.started + j.timeout
}

// deadline is when the started call times out: its start plus its
// timeout, as time.Time.Add would make it from the start.
func (j *job) deadline() time.Time { return origin.Add(j.started).Add(j.timeout) }

// elapsed is how long the started call has run.
func (j *job) elapsed() time.Duration { return sinceOrigin() - j.started }

func newJob(s *Scheduler, ctx context.Context, jb Job) *job {
	d := jb.Tool.Descriptor()
	timeout := d.Timeout
	if timeout <= 0 {
		timeout = s.opts.DefaultTimeout
	}
	name := d.Name
	if name == "" {
		name = jb.Call.Name
	}
	if d.OwnGoroutine {
		jb.Here = nil
	}
	j := &job{Job: jb, s: s, dctx: ctx, name: name, seq: d.Sequential, timeout: timeout, heapAt: -1}
	j.cctx.j = j
	j.pending.Store(1)
	return j
}

// run is the worker goroutine of a started job.
func (j *job) run() {
	if o, ok := j.execute(); ok {
		j.deliver(o)
	}
	j.s.finishPart(j)
}

// Taken is a call a Job's Here took, to run on the goroutine it hands
// it to. It is one pointer, so an interface holds it without an
// allocation.
type Taken struct{ j *job }

// Run runs the call's tool and returns its outcome rather than handing
// it to Done, or false when the outcome went to Done already (the call
// timed out or was cancelled first). Returning finishes the job's
// delivery part (when expire did not) and its worker part.
func (t Taken) Run() (Outcome, bool) {
	j := t.j
	o, ok := j.execute()
	if ok {
		j.delivered()
		j.s.finishPart(j)
	}
	j.s.finishPart(j)
	return o, ok
}

// execute runs the tool and frees its slot. It reports false when the
// call expired first, whose outcome went to Done already.
func (j *job) execute() (Outcome, bool) {
	s := j.s
	var (
		res      contract.ToolOutcome
		err      error
		panicked bool
	)
	if err = j.cctx.cause(); err == nil {
		res, err, panicked = j.invoke(&j.cctx)
	}
	o := j.settle(res, err, panicked)

	s.mu.Lock()
	s.dropDeadline(j)
	expired := j.phase == phaseExpired
	if expired {
		s.straggling[j].Stop()
		delete(s.straggling, j)
	} else {
		j.phase = phaseReturned
		j.forget()
	}
	s.release(j)
	s.mu.Unlock()

	j.cctx.end(nil)
	return o, !expired
}

// invoke calls Start and the tool, turning a panic into an error whose
// text names the panic value; the stack goes to the log only.
func (j *job) invoke(ctx context.Context) (res contract.ToolOutcome, err error, panicked bool) {
	defer func() {
		if r := recover(); r != nil {
			panicked = true
			err = fmt.Errorf("tool %q panicked: %v", j.name, r)
			j.s.opts.Logger.LogAttrs(ctx, slog.LevelError, "dispatch: tool panicked",
				slog.String("tool", j.name), slog.String("call_id", j.Call.ID),
				slog.Any("panic", r), slog.String("stack", string(debug.Stack())))
		}
	}()
	if j.Start != nil {
		if err := j.Start(ctx); err != nil {
			return res, fmt.Errorf("tool %q was not started: %w", j.name, err), false
		}
		// Cancelled or timed out while Start ran: answered already, so
		// the tool must not run.
		if err := j.cctx.cause(); err != nil {
			return res, err, false
		}
	}
	if tc, ok := j.Tool.(textCaller); ok {
		res, err = tc.callText(ctx, j.Call.Arguments)
	} else {
		res, err = j.Tool.Call(ctx, json.RawMessage(j.Call.Arguments))
	}
	return res, err, false
}

// textCaller is a tool of this package that takes its arguments as the
// call's string: Call's json.RawMessage would be a copy of it.
type textCaller interface {
	callText(ctx context.Context, args string) (contract.ToolOutcome, error)
}

// settle turns what the tool returned into the outcome the model sees.
func (j *job) settle(res contract.ToolOutcome, err error, panicked bool) Outcome {
	switch {
	case panicked:
		res = contract.ToolOutcome{Content: err.Error(), IsError: true}
	case err != nil:
		if cause := j.cctx.cause(); cause != nil {
			return j.cancelledOutcome(cause)
		}
		res = contract.ToolOutcome{Content: j.errorText(err), IsError: true}
	}
	return Outcome{
		CallID:   j.Call.ID,
		Outcome:  capOutput(res, j.s.opts.OutputCap),
		Duration: j.elapsed(),
		Panicked: panicked,
	}
}

// errorText is the text of the error a tool returned, for the model. An
// error with no text, or one whose Error panics (a typed nil pointer
// returned as an error), still says that the tool failed; the panic
// would otherwise end the process, on whichever goroutine settles the
// call.
func (j *job) errorText(err error) (text string) {
	defer func() {
		if r := recover(); r != nil {
			text = fmt.Sprintf("tool %q failed with an error whose text could not be read: %v", j.name, r)
		}
	}()
	if text = err.Error(); strings.TrimSpace(text) == "" {
		text = fmt.Sprintf("tool %q failed without saying why", j.name)
	}
	return text
}

// cancelledOutcome answers a call that timed out or was cancelled.
func (j *job) cancelledOutcome(cause error) Outcome {
	o := Outcome{CallID: j.Call.ID}
	if j.started != 0 {
		o.Duration = j.elapsed()
	}
	var text string
	if errors.Is(cause, ErrTimedOut) {
		o.TimedOut = true
		text = fmt.Sprintf("tool %q timed out after %v", j.name, j.timeout)
	} else {
		o.Cancelled = true
		text = fmt.Sprintf("tool %q cancelled", j.name)
		if cause != nil && !errors.Is(cause, ErrCancelled) {
			text += ": " + cause.Error()
		}
	}
	o.Outcome = contract.ToolOutcome{Content: text, IsError: true}
	return o
}

func (j *job) timedOut() {
	j.cctx.end(ErrTimedOut)
	j.expire()
}

// ctxDone answers a call whose dispatch context ended.
func (j *job) ctxDone() {
	s := j.s
	s.mu.Lock()
	switch j.state {
	case stateQueued:
		j.forget()
		s.mu.Unlock()
		j.deliver(j.cancelledOutcome(context.Cause(j.dctx)))
	case stateRunning:
		// The call's cause must be there before expire reads it.
		s.mu.Unlock()
		j.cctx.end(context.Cause(j.dctx))
		j.expire()
	default:
		s.mu.Unlock()
	}
}

// expire answers a started call whose context ended, unless its tool
// returned first. The tool keeps its slot for the grace period.
func (j *job) expire() {
	s := j.s
	s.mu.Lock()
	if j.phase != phaseRunning {
		s.mu.Unlock()
		return
	}
	j.phase = phaseExpired
	j.forget()
	s.straggling[j] = time.AfterFunc(s.opts.Grace, j.graceOver)
	o := j.cancelledOutcome(j.cctx.cause())
	s.mu.Unlock()
	j.deliver(o)
}

// graceOver frees the slot of a tool that ignored its context.
func (j *job) graceOver() {
	s := j.s
	s.mu.Lock()
	held := j.slot
	s.release(j)
	s.mu.Unlock()
	if held {
		s.opts.Logger.LogAttrs(context.Background(), slog.LevelWarn, "dispatch: tool ignores cancellation; slot freed",
			slog.String("tool", j.name), slog.String("call_id", j.Call.ID), slog.Duration("grace", s.opts.Grace))
	}
}

// forget removes j from the calls Cancel can reach, before its outcome is
// delivered, so Done may dispatch the same id again. Called with s.mu held.
func (j *job) forget() {
	j.state = stateDone
	if j.s.calls[j.Call.ID] == j {
		delete(j.s.calls, j.Call.ID)
	}
}

// delivered stops watching the dispatch context of a call answered.
func (j *job) delivered() {
	if j.stopCtx != nil {
		j.stopCtx()
	}
}

// deliver hands o to Done. A panicking Done is logged, not propagated:
// it runs on the scheduler's goroutine, where a panic would kill the
// process.
func (j *job) deliver(o Outcome) {
	s := j.s
	j.delivered()
	defer func() {
		if r := recover(); r != nil {
			s.opts.Logger.LogAttrs(context.Background(), slog.LevelError, "dispatch: Done panicked",
				slog.String("tool", j.name), slog.String("call_id", j.Call.ID),
				slog.Any("panic", r), slog.String("stack", string(debug.Stack())))
		}
		s.finishPart(j)
	}()
	j.Done(o)
}
