package dispatch

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"log/slog"
	"runtime/debug"
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

// job is a Job in flight. Fields below the line are guarded by s.mu,
// except where noted.
type job struct {
	Job
	s       *Scheduler
	dctx    context.Context
	name    string
	seq     bool
	timeout time.Duration
	seqNo   uint64

	state      jobState
	phase      toolPhase
	slot       bool // holds one of the scheduler's slots
	pending    int  // parts left: the delivery, and the worker once started
	cancel     context.CancelCauseFunc
	stopQueued func() bool
	grace      *time.Timer

	// Written by the worker before expire can run.
	started time.Time
	cctx    callCtx
}

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
	return &job{Job: jb, s: s, dctx: ctx, name: name, seq: d.Sequential, timeout: timeout, pending: 1}
}

// run is the worker goroutine of a started job.
func (j *job) run(ctx context.Context) {
	s := j.s
	if j.stopQueued != nil {
		j.stopQueued()
	}
	ctx, cancel := context.WithTimeoutCause(ctx, j.timeout, ErrTimedOut)
	j.cctx = callCtx{Context: ctx, j: j}
	j.started = time.Now()
	var (
		res      contract.ToolOutcome
		err      error
		panicked bool
	)
	if err = ctx.Err(); err == nil {
		stop := context.AfterFunc(ctx, j.expire)
		res, err, panicked = j.invoke(&j.cctx)
		stop()
	}
	o := j.settle(ctx, res, err, panicked)
	cancel()
	j.cancel(nil)

	s.mu.Lock()
	expired := j.phase == phaseExpired
	if expired {
		delete(s.straggling, j)
		j.grace.Stop()
	} else {
		j.phase = phaseReturned
		j.forget()
	}
	s.release(j)
	s.finishPart(j)
	s.mu.Unlock()
	if !expired {
		j.deliver(o)
	}
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
	}
	res, err = j.Tool.Call(ctx, json.RawMessage(j.Call.Arguments))
	return res, err, false
}

// settle turns what the tool returned into the outcome the model sees.
func (j *job) settle(ctx context.Context, res contract.ToolOutcome, err error, panicked bool) Outcome {
	switch {
	case panicked:
		res = contract.ToolOutcome{Content: err.Error(), IsError: true}
	case err != nil && ctx.Err() != nil:
		return j.cancelledOutcome(context.Cause(ctx))
	case err != nil:
		res = contract.ToolOutcome{Content: err.Error(), IsError: true}
	}
	return Outcome{
		CallID:   j.Call.ID,
		Outcome:  capOutput(res, j.s.opts.OutputCap),
		Duration: time.Since(j.started),
		Panicked: panicked,
	}
}

// cancelledOutcome answers a call that timed out or was cancelled.
func (j *job) cancelledOutcome(cause error) Outcome {
	o := Outcome{CallID: j.Call.ID}
	if !j.started.IsZero() {
		o.Duration = time.Since(j.started)
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

// expire answers a started call whose context ended before its tool
// returned. The tool keeps its slot for the grace period.
func (j *job) expire() {
	s := j.s
	s.mu.Lock()
	if j.phase != phaseRunning {
		s.mu.Unlock()
		return
	}
	j.phase = phaseExpired
	j.forget()
	s.straggling[j] = struct{}{}
	j.grace = time.AfterFunc(s.opts.Grace, j.graceOver)
	s.mu.Unlock()
	j.deliver(j.cancelledOutcome(context.Cause(j.cctx.Context)))
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

// deliver hands o to Done. A panicking Done is logged, not propagated:
// it runs on the scheduler's goroutine, where a panic would kill the
// process.
func (j *job) deliver(o Outcome) {
	s := j.s
	defer func() {
		if r := recover(); r != nil {
			s.opts.Logger.LogAttrs(context.Background(), slog.LevelError, "dispatch: Done panicked",
				slog.String("tool", j.name), slog.String("call_id", j.Call.ID),
				slog.Any("panic", r), slog.String("stack", string(debug.Stack())))
		}
		s.mu.Lock()
		s.finishPart(j)
		s.mu.Unlock()
	}()
	j.Done(o)
}

// finishPart marks one part of j finished. Called with s.mu held.
func (s *Scheduler) finishPart(j *job) {
	j.pending--
	if j.pending == 0 {
		s.live--
		s.checkDrained()
	}
}
