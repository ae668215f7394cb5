package dispatch

import (
	"cmp"
	"context"
	"fmt"
	"slices"
	"strings"
	"sync"
	"sync/atomic"
	"time"

	"github.com/batonrt/baton/contract"
)

// Job is one call to run.
type Job struct {
	Call      contract.ToolCall
	Tool      Tool
	SessionID string
	RunID     string
	// WorkDir is the session's working directory, handed to the tool
	// (see WorkDir).
	WorkDir string
	// Start, if set, is called on the worker goroutine right before the
	// tool runs (after a slot is free); if it returns an error the tool
	// does not run and the outcome is an error outcome. The conductor uses
	// it to durably record "started" before any side effect.
	Start func(ctx context.Context) error
	// Done is called exactly once with the outcome, from a goroutine of
	// the scheduler's, as soon as the call finishes. Close waits for it,
	// so it must not wait on the goroutine that calls Close.
	Done func(Outcome)
	// Here, if set, is offered the call once it may start (unless its
	// tool is marked OwnGoroutine), in place of a goroutine of the
	// scheduler's: if it returns true it has taken the call and runs it
	// soon (Taken.Run), once, on a goroutine of its own. Here is called
	// with the scheduler's lock held: it must not block or call the
	// scheduler.
	Here func(Taken) bool
}

// Outcome is what one call came to.
type Outcome struct {
	CallID    string
	Outcome   contract.ToolOutcome
	Duration  time.Duration
	Panicked  bool
	TimedOut  bool
	Cancelled bool
}

// Scheduler runs tool calls in FIFO order, at most Limit at once, a
// sequential tool alone. It is safe for concurrent use.
type Scheduler struct {
	opts Options

	mu    sync.Mutex
	queue fifo
	calls map[string]*job // not yet delivered, by call id
	// straggling holds the calls answered while their tool still runs,
	// each with the timer that frees its slot after the grace period.
	straggling map[*job]*time.Timer
	running    int
	seqRunning bool
	dispatched uint64
	deadlines  deadlines

	closed    atomic.Bool  // written under mu
	live      atomic.Int64 // dispatched jobs not yet delivered and returned
	drainOnce sync.Once
	drained   chan struct{} // closed once closed and live == 0
}

// NewScheduler returns a Scheduler with opts, zero fields defaulted.
func NewScheduler(opts Options) *Scheduler {
	return &Scheduler{
		opts:       opts.withDefaults(),
		calls:      make(map[string]*job),
		straggling: make(map[*job]*time.Timer),
		drained:    make(chan struct{}),
	}
}

// Dispatch queues job and returns at once; the job starts when a slot
// frees and its outcome goes to job.Done. Cancelling ctx cancels the call,
// queued or running. Dispatch fails, and Done is never called, for an
// invalid job, a call id still in flight, or a closed scheduler.
func (s *Scheduler) Dispatch(ctx context.Context, job Job) error {
	switch {
	case ctx == nil:
		return fmt.Errorf("%w: nil context", ErrBadJob)
	case job.Call.ID == "":
		return fmt.Errorf("%w: empty call id", ErrBadJob)
	case job.Tool == nil:
		return fmt.Errorf("%w: call %s: nil tool", ErrBadJob, job.Call.ID)
	case job.Done == nil:
		return fmt.Errorf("%w: call %s: nil Done", ErrBadJob, job.Call.ID)
	}
	j := newJob(s, ctx, job)
	s.mu.Lock()
	defer s.mu.Unlock()
	if s.closed.Load() {
		return ErrClosed
	}
	if _, dup := s.calls[job.Call.ID]; dup {
		return fmt.Errorf("%w: %s", ErrDuplicateCall, job.Call.ID)
	}
	s.calls[job.Call.ID] = j
	s.live.Add(1)
	s.dispatched++
	j.seqNo = s.dispatched
	s.queue.push(j)
	if ctx.Done() != nil {
		// Registered before the job can start, so its worker always finds
		// the stop function set.
		j.stopCtx = context.AfterFunc(ctx, j.ctxDone)
	}
	s.pump()
	return nil
}

// pump starts queued jobs while there is room, in FIFO order: a job that
// cannot start yet holds back the ones behind it, so a sequential call is
// never starved by a stream of parallel ones. Each job gets a goroutine
// of its own rather than the one that freed its slot, so a slow Done
// never delays the next call, unless the job's Here takes it. Called
// with s.mu held.
func (s *Scheduler) pump() {
	for j := s.queue.peek(); j != nil; j = s.queue.peek() {
		if j.state != stateQueued {
			s.queue.pop()
			continue
		}
		if s.opts.Limit > 0 && (j.seq && s.running > 0 || !j.seq && (s.running >= s.opts.Limit || s.seqRunning)) {
			return
		}
		s.queue.pop()
		s.running++
		s.seqRunning = j.seq
		j.state = stateRunning
		j.slot = true
		j.pending.Add(1)
		// The deadline is timed from the start, so it agrees with the
		// tool's Deadline.
		j.started = max(sinceOrigin(), 1) // not zero: started
		s.addDeadline(j)
		if j.Here == nil || !j.Here(Taken{j}) {
			go j.run()
		}
	}
}

// release frees j's slot, if it still holds one, and starts what can
// start. Called with s.mu held.
func (s *Scheduler) release(j *job) {
	if !j.slot {
		return
	}
	j.slot = false
	s.running--
	if j.seq {
		s.seqRunning = false
	}
	s.pump()
}

// Cancel cancels the call with the id, queued or running; its outcome is a
// cancelled error outcome. An unknown or finished id is ignored.
func (s *Scheduler) Cancel(callID string) {
	s.mu.Lock()
	j := s.calls[callID]
	s.mu.Unlock()
	if j != nil {
		s.cancelJobs([]*job{j})
	}
}

// CancelAll cancels every queued and running call.
func (s *Scheduler) CancelAll() {
	s.mu.Lock()
	jobs := make([]*job, 0, len(s.calls))
	for _, j := range s.calls {
		jobs = append(jobs, j)
	}
	s.mu.Unlock()
	// Answered in the order they were dispatched.
	slices.SortFunc(jobs, func(a, b *job) int { return cmp.Compare(a.seqNo, b.seqNo) })
	s.cancelJobs(jobs)
}

// cancelJobs cancels jobs and answers them from one new goroutine, never
// from the caller's, so that a caller holding its own lock is not called
// back.
func (s *Scheduler) cancelJobs(jobs []*job) {
	var queued, running []*job
	s.mu.Lock()
	for _, j := range jobs {
		switch j.state {
		case stateQueued:
			j.forget()
			queued = append(queued, j)
		case stateRunning:
			running = append(running, j)
		}
	}
	s.mu.Unlock()
	if len(queued)+len(running) == 0 {
		return
	}
	// The running calls' contexts end before Cancel returns, so a call
	// started but not yet run (taken by a Job's Here) never runs its
	// tool once cancelled; cancelling calls back no one synchronously.
	for _, j := range running {
		j.cctx.end(ErrCancelled)
	}
	go func() {
		for _, j := range queued {
			j.deliver(j.cancelledOutcome(ErrCancelled))
		}
		for _, j := range running {
			j.expire()
		}
	}()
}

// Stragglers returns how many tools timed out or were cancelled, had
// their outcome delivered, and have not returned yet.
func (s *Scheduler) Stragglers() int {
	s.mu.Lock()
	defer s.mu.Unlock()
	return len(s.straggling)
}

// Close refuses new calls, cancels every call, and waits until every
// outcome is delivered and every tool has returned, or ctx ends. In the
// latter case it names the tools that ignored cancellation, with an error
// matching ErrStragglers and ctx's error.
func (s *Scheduler) Close(ctx context.Context) error {
	s.mu.Lock()
	s.closed.Store(true)
	s.mu.Unlock()
	if s.live.Load() == 0 {
		s.drain()
	}
	s.CancelAll()
	select {
	case <-s.drained:
		return nil
	case <-ctx.Done():
	}
	// select picks at random when both are ready; drained wins.
	select {
	case <-s.drained:
		return nil
	default:
	}
	s.mu.Lock()
	defer s.mu.Unlock()
	if len(s.straggling) == 0 {
		return fmt.Errorf("dispatch: close: %d calls still finishing: %w", s.live.Load(), ctx.Err())
	}
	names := make([]string, 0, len(s.straggling))
	for j := range s.straggling {
		names = append(names, fmt.Sprintf("%s (call %s)", j.name, j.Call.ID))
	}
	slices.Sort(names)
	return fmt.Errorf("%w: %s: %w", ErrStragglers, strings.Join(names, ", "), ctx.Err())
}

func (s *Scheduler) drain() { s.drainOnce.Do(func() { close(s.drained) }) }

// finishPart marks one part of j finished: its delivery, or its worker.
// The last part of the last job lets a pending Close return.
func (s *Scheduler) finishPart(j *job) {
	if j.pending.Add(-1) == 0 && s.live.Add(-1) == 0 && s.closed.Load() {
		s.drain()
	}
}
