package conductor

import (
	"context"
	"encoding/json"
	"errors"
	"slices"
	"sync"

	"github.com/batonrt/baton/contract"
	"github.com/batonrt/baton/dispatch"
)

var errBlocked = errors.New("conductor: blocked by before_tool hook")

// startTool starts a call at once: the step that emitted its RunTool is
// durable before its effects are performed, so that step is the call's
// start record, and the rules have already decided it may run now.
func (a *Agent) startTool(c *contract.ToolCall) {
	call := *c
	run := a.run
	tool, ok := run.tool(call.Name)
	if !ok {
		a.later(run, contract.ToolSettled{CallID: call.ID, Outcome: contract.ToolOutcome{Content: "error: tool " + call.Name + " has no implementation", IsError: true}, At: a.now()})
		return
	}
	// Without hooks nothing can block or rewrite the call: it runs the
	// tool as it is, and the nil gate says nothing was changed.
	var gate *blockGate
	if a.deps.Hooks.Len() > 0 {
		gate = &blockGate{}
		tool = hookedTool{Tool: tool, gate: gate}
	}
	job := dispatch.Job{
		Call:      call,
		Tool:      tool,
		SessionID: a.state.SessionID,
		RunID:     a.state.RunID,
		WorkDir:   a.deps.Env.WorkDir,
		Done:      a.toolDone(run),
	}
	if gate == nil {
		job.Here = a.toolHere(run)
	} else {
		job.Done = func(o dispatch.Outcome) {
			out := o.Outcome
			args, rewrote := gate.rewrite()
			if blocked := gate.get(); blocked != "" {
				out = contract.ToolOutcome{Content: "error: blocked: " + blocked, IsError: true}
			} else {
				var by []string
				out, by = a.runAfterTool(run.ctx, call, out)
				rewrote = append(rewrote, by...)
			}
			out.Content = validText(out.Content)
			a.settle(run, task{isResult: true, result: contract.ToolSettled{CallID: call.ID, Outcome: out, Arguments: args, RewrittenBy: rewrote, Tokens: a.est.Result(out.Content)}})
		}
		job.Start = func(ctx context.Context) error {
			rewritten, reason, rewrote := a.runBeforeTool(ctx, call)
			if reason != "" {
				gate.set(reason)
				return errBlocked
			}
			if len(rewrote) > 0 {
				gate.setArgs(rewritten.Arguments, rewrote)
			}
			return nil
		}
	}
	// The run's calls are cancelled by id (CancelInFlight) and all at
	// once when the run ends (endRun), not through a context: a context
	// that can end costs every call a watch on it.
	if err := a.sched.Dispatch(context.Background(), job); err != nil {
		a.later(run, contract.ToolSettled{CallID: call.ID, Outcome: contract.ToolOutcome{Content: "error: " + err.Error(), IsError: true}, At: a.now()})
	}
}

// toolDone returns the Done of the run's calls without hooks, made once
// a run: nothing can block or rewrite them, so the outcome is all it
// needs.
func (a *Agent) toolDone(run *runState) func(dispatch.Outcome) {
	if run.toolDone == nil {
		run.toolDone = func(o dispatch.Outcome) { a.settle(run, a.toolResult(o)) }
	}
	return run.toolDone
}

// toolResult is the task that hands a call's outcome to the rules, its
// tokens counted here, off the agent's tasks.
func (a *Agent) toolResult(o dispatch.Outcome) task {
	out := o.Outcome
	out.Content = validText(out.Content)
	return task{isResult: true, result: contract.ToolSettled{CallID: o.CallID, Outcome: out, Tokens: a.est.Result(out.Content)}}
}

// toolHere returns the Here of the run's calls without hooks, made once
// a run: a call that may start while a worker hands in the step that
// started it is left for that worker, as a model call is (spawn), so a
// turn runs on one goroutine from the model's reply to the next model
// call instead of waking one for each call and the caller for each
// result; a batch's calls left behind a slow one are taken by helpers
// (see crew).
func (a *Agent) toolHere(run *runState) func(dispatch.Taken) bool {
	if run.toolHere == nil {
		run.toolHere = func(call dispatch.Taken) bool {
			return run.crew.handTo(hereCall{call})
		}
	}
	return run.toolHere
}

// hereCall is a tool call run by the worker it was left for. It is one
// pointer, so it is left as a job without an allocation.
type hereCall struct{ call dispatch.Taken }

func (h hereCall) do(a *Agent) task {
	o, ok := h.call.Run()
	if !ok {
		// Timed out or cancelled first: Done answered it.
		return task{}
	}
	return a.toolResult(o)
}

// blockGate carries a before_tool hook's refusal from Start to Done,
// which may run on another goroutine. A nil gate, for an agent without
// hooks, reads as nothing blocked or rewritten.
type blockGate struct {
	mu      sync.Mutex
	blocked string
	args    *string
	rewrote []string
}

func (g *blockGate) set(blocked string) {
	g.mu.Lock()
	g.blocked = blocked
	g.mu.Unlock()
}

func (g *blockGate) get() string {
	if g == nil {
		return ""
	}
	g.mu.Lock()
	defer g.mu.Unlock()
	return g.blocked
}

// setArgs records the arguments the call runs with, as the before-tool
// hooks named by rewrote left them.
func (g *blockGate) setArgs(args string, rewrote []string) {
	g.mu.Lock()
	g.args, g.rewrote = &args, rewrote
	g.mu.Unlock()
}

// rewrite returns the rewritten arguments and who rewrote them, or ""
// and nil (always, on a nil gate).
func (g *blockGate) rewrite() (string, []string) {
	if g == nil {
		return "", nil
	}
	g.mu.Lock()
	defer g.mu.Unlock()
	if g.args == nil {
		return "", nil
	}
	return *g.args, slices.Clone(g.rewrote)
}

// hookedTool runs its tool with the arguments the before-tool hooks left.
type hookedTool struct {
	dispatch.Tool
	gate *blockGate
}

func (t hookedTool) Call(ctx context.Context, args json.RawMessage) (contract.ToolOutcome, error) {
	t.gate.mu.Lock()
	if t.gate.args != nil {
		args = json.RawMessage(*t.gate.args)
	}
	t.gate.mu.Unlock()
	return t.Tool.Call(ctx, args)
}
