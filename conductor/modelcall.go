package conductor

import (
	"context"
	"sync"

	"github.com/batonrt/baton/contract"
)

// startModel streams one model call. Deltas are published as they come,
// numbered after the newest committed event; the whole reply comes back
// to the agent as one signal.
func (a *Agent) startModel(req *contract.ModelRequest) {
	run := a.run
	m := &modelCall{a: a, run: run, ctx: run.modelContext(), req: *req, base: a.state.Seq, session: a.state.SessionID, runID: a.state.RunID}
	run.deltas = &m.gate
	a.spawn(run, m)
}

// modelCall is one model call of a run, done by a worker. Its frame is
// on the stack of a run for as long as the model takes, so what follows
// the call is done in replied.
type modelCall struct {
	a       *Agent
	run     *runState
	ctx     context.Context
	req     contract.ModelRequest
	gate    deltaGate
	base    uint64
	session string
	runID   string
	delta   uint32
}

func (m *modelCall) do(*Agent) task {
	a := m.a
	block, rewrote := a.runBeforeModel(m.ctx, &m.req)
	if block != "" {
		return blockedModel(a, block)
	}
	sig, resp := a.driver.RunReply(m.ctx, m.req, m.publish)
	if m.ctx.Err() != nil {
		return task{}
	}
	return task{sig: a.replied(m.ctx, m.run, sig, rewrote), response: resp}
}

// blockedModel is the result of a model call a before-model hook
// blocked; built here, not in the frame of every model call.
//
//go:noinline
func blockedModel(a *Agent, block string) task {
	return task{sig: contract.ModelFailed{Failure: contract.FailBlocked, Message: block, At: a.now()}}
}

// publish numbers a streaming event after the newest committed one. An
// event no one would see is numbered but neither stamped nor published,
// so a subscriber that comes mid-call still sees deltas counted from
// the call's first.
func (m *modelCall) publish(ev *contract.RunEvent) {
	m.delta++
	if !m.a.watched() {
		return
	}
	ev.Seq, ev.Delta = m.base, m.delta
	ev.SessionID, ev.RunID = m.session, m.runID
	if ev.At == 0 {
		ev.At = m.a.now()
	}
	m.gate.publish(m.a.publish, ev)
}

// replied completes what a model call ended with. The driver counted
// the reply's tokens; the approval keys of its calls, the hooks that
// rewrote the request and the output check's verdict are added here,
// and the reply is made a signal again only when one of them was.
func (a *Agent) replied(ctx context.Context, run *runState, sig contract.Signal, rewrote []string) contract.Signal {
	if reply, ok := sig.(contract.ModelReplied); ok {
		keys := len(reply.Keys)
		reply = withApprovalKeys(run.box.Load(), reply)
		changed := len(reply.Keys) != keys
		if len(rewrote) > 0 {
			reply.RewrittenBy, changed = rewrote, true
		}
		if verdict := a.output.verdict(reply.Reply); verdict != "" {
			reply.OutputError, changed = verdict, true
		}
		if changed {
			sig = reply
		}
	}
	if a.deps.Hooks.Len() > 0 {
		observe(a, "after_model", func(h AfterModelHook) error { return h(ctx, sig) })
	}
	return sig
}

// modelContext returns the context the run's model calls run under. The
// calls of a run come one after another, so they share one, made again
// only after a call was cancelled (CancelInFlight), rather than each
// paying for a context of its own; the driver still gives every attempt
// its own, which ends with the attempt.
func (run *runState) modelContext() context.Context {
	if run.modelCtx == nil || run.modelCtx.Err() != nil {
		run.modelCtx, run.modelCancel = context.WithCancel(run.ctx)
	}
	return run.modelCtx
}

// deltaGate lets a model call's streaming events through until it is
// shut; shutting waits for a delta being published, so none slips past.
type deltaGate struct {
	mu   sync.Mutex
	shut bool
}

func (g *deltaGate) publish(publish func(*contract.RunEvent), ev *contract.RunEvent) {
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
