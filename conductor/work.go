package conductor

import (
	"context"
	"errors"
	"sync"

	"github.com/batonrt/baton/compactor"
	"github.com/batonrt/baton/contract"
	"github.com/batonrt/baton/dispatch"
	"github.com/batonrt/baton/turn"
)

// spawn runs fn on a goroutine that the run and the agent both wait for.
func (a *Agent) spawn(run *runState, fn func()) {
	a.workers.Add(1)
	run.wg.Add(1)
	go func() {
		defer a.workers.Done()
		defer run.wg.Done()
		fn()
	}()
}

// startModel streams one model call. Deltas are published as they come,
// numbered after the newest committed event; the whole reply comes back
// to the loop as one signal.
func (a *Agent) startModel(req contract.ModelRequest) {
	run := a.run
	ctx, cancel := context.WithCancel(run.ctx)
	run.modelCancel = cancel
	gate := &deltaGate{}
	run.deltas = gate
	base := a.state.Seq
	session, runID := a.state.SessionID, a.state.RunID
	a.spawn(run, func() {
		defer cancel()
		if h := a.deps.Hooks.BeforeModel; h != nil {
			callHook(a.log, "before_model", func() error { return h(ctx, &req) })
		}
		var delta uint32
		sig := a.driver.Run(ctx, req, func(ev contract.RunEvent) {
			delta++
			ev.Seq, ev.Delta = base, delta
			ev.SessionID, ev.RunID = session, runID
			if ev.At == 0 {
				ev.At = a.now()
			}
			gate.publish(a.publish, ev)
		})
		if ctx.Err() != nil {
			return
		}
		sig = withApprovalKeys(run.box, sig)
		if h := a.deps.Hooks.AfterModel; h != nil {
			callHook(a.log, "after_model", func() error { return h(ctx, sig) })
		}
		a.send(run, func() { a.apply(sig) })
	})
}

var errBlocked = errors.New("conductor: blocked by before_tool hook")

// startTool hands a call to the scheduler. The call is recorded as
// started, durably, before the tool runs; if the run has moved on by
// then (steered, aborted) the tool never runs.
func (a *Agent) startTool(call contract.ToolCall) {
	run := a.run
	tool, ok := run.box.Lookup(call.Name)
	if !ok {
		a.later(run, contract.ToolSettled{CallID: call.ID, Outcome: contract.ToolOutcome{Content: "error: tool " + call.Name + " has no implementation", IsError: true}, At: a.now()})
		return
	}
	var gate startGate
	job := dispatch.Job{
		Call:      call,
		Tool:      tool,
		SessionID: a.state.SessionID,
		RunID:     a.state.RunID,
		WorkDir:   a.deps.WorkDir,
		Start: func(ctx context.Context) error {
			if h := a.deps.Hooks.BeforeTool; h != nil {
				var reason string
				callHook(a.log, "before_tool", func() error {
					var err error
					reason, err = h(ctx, call)
					return err
				})
				if reason != "" {
					gate.set(reason, false)
					return errBlocked
				}
			}
			err := a.recordStarted(ctx, run, call.ID)
			if errors.Is(err, errNotStarted) {
				gate.set("", true)
			}
			return err
		},
		Done: func(o dispatch.Outcome) {
			out := o.Outcome
			blocked, notStarted := gate.get()
			switch {
			case blocked != "":
				out = contract.ToolOutcome{Content: "error: blocked: " + blocked, IsError: true}
			case notStarted:
				return
			default:
				if h := a.deps.Hooks.AfterTool; h != nil {
					callHook(a.log, "after_tool", func() error { return h(run.ctx, call, &out) })
				}
			}
			out.Content = validText(out.Content)
			a.send(run, func() { a.apply(contract.ToolSettled{CallID: call.ID, Outcome: out, At: a.now()}) })
		},
	}
	if err := a.sched.Dispatch(run.ctx, job); err != nil {
		a.later(run, contract.ToolSettled{CallID: call.ID, Outcome: contract.ToolOutcome{Content: "error: " + err.Error(), IsError: true}, At: a.now()})
	}
}

// errNotStarted: the loop refused the start because the call was
// already answered (skipped or aborted), so its outcome must be dropped.
var errNotStarted = errors.New("conductor: call no longer pending")

// recordStarted commits ToolStarted on the loop and waits until it is
// durable.
func (a *Agent) recordStarted(ctx context.Context, run *runState, id string) error {
	ack := make(chan string, 1)
	select {
	case a.inbox <- func() {
		if a.run != run {
			ack <- "run ended"
			return
		}
		var reason string
		if err := a.apply(contract.ToolStarted{CallID: id, At: a.now()}); err != nil {
			reason = err.Error()
		}
		if reason == "" && a.run != run {
			// The record could not be made durable (or ended the run):
			// a tool must not run unrecorded.
			reason = "the run ended before the call started"
		}
		ack <- reason
	}:
	case <-ctx.Done():
		return context.Cause(ctx)
	case <-a.quit:
		return ErrClosed
	}
	select {
	case reason := <-ack:
		if reason != "" {
			return errNotStarted
		}
		return nil
	case <-ctx.Done():
		return context.Cause(ctx)
	case <-a.quit:
		return ErrClosed
	}
}

// startCompaction asks the provider for a summary of the oldest turns.
func (a *Agent) startCompaction(turns []contract.Turn, cut int) {
	run := a.run
	prompt := compactor.SummaryPrompt(turns)
	a.spawn(run, func() {
		ctx, cancel := context.WithCancel(run.ctx)
		defer cancel()
		summary, err := turn.Summarize(ctx, a.deps.Provider, a.cfg.Model, prompt, a.deps.Driver)
		if run.ctx.Err() != nil {
			return
		}
		var sig contract.Signal
		if err != nil || summary == "" {
			reason := "empty summary"
			if err != nil {
				reason = err.Error()
			}
			sig = contract.CompactionFailed{Reason: reason, At: a.now()}
		} else {
			if h := a.deps.Hooks.OnCompaction; h != nil {
				callHook(a.log, "on_compaction", func() error { h(ctx, summary); return nil })
			}
			sig = contract.Compacted{Summary: summary, Cut: cut, At: a.now()}
		}
		a.send(run, func() { a.apply(sig) })
	})
}

func descriptors(tools []dispatch.Tool) []contract.ToolDescriptor {
	var out []contract.ToolDescriptor
	for _, t := range tools {
		out = append(out, t.Descriptor())
	}
	return out
}

// startGate carries what Start decided to Done, which may run on another
// goroutine.
type startGate struct {
	mu         sync.Mutex
	blocked    string
	notStarted bool
}

func (g *startGate) set(blocked string, notStarted bool) {
	g.mu.Lock()
	g.blocked, g.notStarted = blocked, notStarted
	g.mu.Unlock()
}

func (g *startGate) get() (string, bool) {
	g.mu.Lock()
	defer g.mu.Unlock()
	return g.blocked, g.notStarted
}

// deltaGate lets a model call's streaming events through until it is
// shut; shutting waits for a delta being published, so none slips past.
type deltaGate struct {
	mu   sync.Mutex
	shut bool
}

func (g *deltaGate) publish(publish func(contract.RunEvent), ev contract.RunEvent) {
	g.mu.Lock()
	defer g.mu.Unlock()
	if !g.shut {
		publish(ev)
	}
}

// close shuts the gate; on a nil gate (no model call yet) it does nothing.
func (g *deltaGate) close() {
	if g == nil {
		return
	}
	g.mu.Lock()
	g.shut = true
	g.mu.Unlock()
}
