package conductor

import (
	"context"
	"encoding/json"
	"errors"
	"slices"
	"sync"

	"github.com/batonrt/baton/compactor"
	"github.com/batonrt/baton/contract"
	"github.com/batonrt/baton/dispatch"
	"github.com/batonrt/baton/turn"
)

// A job is work a run does off the agent's tasks (a model call, an
// approver, an answerer, a summary): do returns the task that applies
// its result, or none. An interface rather than a func, so a model call
// is handed over without a method value to allocate; the agent is handed
// to do, so a tool call need not keep it and stays one pointer (hereCall).
type job interface{ do(a *Agent) (result task) }

// jobFunc is a job written as a closure.
type jobFunc func() task

func (f jobFunc) do(*Agent) task { return f() }

// spawn runs j on one of the run's workers: a worker handing in a
// result, which runs it next, else as start does. The run waits for the
// workers it started to end, and the agent for every job (Close). Called
// in turn with the agent's closures, so every count is taken before
// Close can wait on it.
func (a *Agent) spawn(run *runState, j job) {
	if run.crew.handTo(j) {
		return
	}
	a.start(run, j)
}

// start runs j on the caller waiting for the run (Submit, Resume) when it
// is free, else on a worker waiting for work, else on a new one.
func (a *Agent) start(run *runState, j job) {
	a.workers.Add(1)
	a.startCounted(run, j)
}

// startCounted is start with j already counted among the agent's jobs,
// as a helper is by the crew that calls it (see crew.callHelper).
func (a *Agent) startCounted(run *runState, j job) {
	if run.crew.toHost() {
		run.host <- hosted{job: j}
		return
	}
	if idle := run.crew.idleWorkers(false); idle != nil {
		select {
		case idle <- j:
			// The worker waiting is counted already.
			a.workers.Done()
			return
		default:
		}
	}
	run.wg.Add(1)
	go a.worker(run, j, run.crew.idleWorkers(true))
}

// worker runs j and then the run's jobs handed to it on idle while it
// waits, until the run or the agent ends.
func (a *Agent) worker(run *runState, j job, idle chan job) {
	defer a.workers.Done()
	defer run.wg.Done()
	a.work(run, j, false)
	for {
		select {
		case j = <-idle:
			a.work(run, j, false)
		case <-run.ctx.Done():
			return
		case <-a.quit:
			return
		}
	}
}

// work runs j, hands its result in, and then runs the jobs left for this
// worker while it was handing in, so that one model call or tool call
// after another runs on the same goroutine without waking another.
func (a *Agent) work(run *runState, j job, host bool) {
	for j != nil {
		result := j.do(a)
		if result.none() {
			j = run.crew.broughtNothing(host)
			continue
		}
		result.run = run
		j = a.handOver(run, &result, host)
	}
}

// handOver hands a worker's result in and returns the job left for this
// worker meanwhile, if any; a helper comes for the ones behind it if it
// is still running after helperWait (see crew).
func (a *Agent) handOver(run *runState, result *task, host bool) job {
	run.crew.finishing()
	a.enqueue(result)
	return run.crew.finished(host)
}

// helper is the job of a worker called to take the jobs left behind the
// one a worker took (see crew): a batch's calls, which each start as soon
// as some worker is free for them.
type helper struct{ run *runState }

func (h *helper) do(a *Agent) task {
	j, help := h.run.crew.take()
	if j == nil {
		return task{}
	}
	if help {
		h.run.crew.startHelper()
	}
	return j.do(a)
}

// handIn has the caller waiting for the run hand in a result brought to
// it (settle), and run what that result spawned.
func (a *Agent) handIn(run *runState, result *task, host bool) {
	if j := a.handOver(run, result, host); j != nil {
		a.work(run, j, host)
	}
}

// hosted is what the caller waiting for a run is handed: a job to run,
// or a result to hand in.
type hosted struct {
	job    job
	result task
}

// settle hands in a tool call's result. When the caller waiting for the
// run is free, it is handed the result, so the step runs on that
// goroutine's stack, grown long ago, rather than growing the tool's
// fresh one to apply the step; the wake-up is the one the next model
// call would cost anyway. Else the tool's goroutine hands it in itself.
func (a *Agent) settle(run *runState, result task) {
	result.run = run
	if run.crew.toHost() {
		run.host <- hosted{result: result}
		return
	}
	a.enqueue(&result)
}

// dropHost is for a run the caller no longer works for: it stopped
// waiting, or it never did (Reopen). A job left for it goes to a worker
// while the run goes on, and is dropped once the run is over, but for a
// helper: the calls it was called to take are run through here, each
// answered at once as cancelled, or they would wait for no one.
func (a *Agent) dropHost(run *runState) {
	if !run.crew.dropHost() {
		return
	}
	// spawn and settle send what they left right after deciding to.
	h := <-run.host
	if h.job == nil {
		a.enqueue(&h.result)
		return
	}
	j := h.job
	if run.ctx.Err() == nil {
		a.workers.Done()
		a.send(run, func() { a.start(run, j) })
		return
	}
	if j == job(&run.helper) {
		a.work(run, j, false)
	}
	a.workers.Done()
}

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

// startCompaction asks the provider for a summary of the oldest turns.
// The request goes through the before-model hooks, marked Summary, as
// every model call does: a hook that takes secrets out of what the model
// reads, or adds what the provider requires, must see the history the
// summary prompt quotes too. A blocked summary falls back as a failed
// one does.
func (a *Agent) startCompaction(turns []contract.Turn, cut int) {
	run := a.run
	req := turn.SummaryRequest(a.rules.Config().Model, compactor.SummaryPrompt(turns))
	a.spawn(run, jobFunc(func() task {
		ctx, cancel := context.WithCancel(run.ctx)
		defer cancel()
		summary, err := a.summarize(ctx, &req)
		if run.ctx.Err() != nil {
			return task{}
		}
		var sig contract.Signal
		if err != nil || summary == "" {
			reason := "empty summary"
			if err != nil {
				reason = err.Error()
			}
			sig = contract.CompactionFailed{Reason: reason, At: a.now()}
		} else {
			// The store keeps valid UTF-8 only, and the rules count the
			// summary's tokens from its text: the run must go on with
			// the text replay will read.
			summary = validText(summary)
			observe(a, "on_compaction", func(h CompactionHook) error { h(ctx, summary); return nil })
			sig = contract.Compacted{Summary: summary, Cut: cut, At: a.now()}
		}
		return task{sig: sig}
	}))
}

// summarize sends a summary request once the before-model hooks let it
// go; what they rewrote is not recorded, since the summary it brings
// back is. A reply goes to the after-model hooks, its turn marked
// MarkSummary, before it becomes the summary: a host that audits what
// the model answered must see the text the history will hold.
func (a *Agent) summarize(ctx context.Context, req *contract.ModelRequest) (string, error) {
	if block, _ := a.runBeforeModel(ctx, req); block != "" {
		return "", errors.New("conductor: summary request " + block)
	}
	if req.History.Len() == 0 {
		return "", errors.New("conductor: summary request has no history")
	}
	answer := turn.NewDriver(a.deps.Model.Provider, a.deps.Model.driverOptions(a.now, a.log)).Run(ctx, *req, nil)
	if reply, ok := answer.(contract.ModelReplied); ok && a.deps.Hooks.Len() > 0 {
		reply.Reply.Mark = contract.MarkSummary
		observe(a, "after_model", func(h AfterModelHook) error { return h(ctx, reply) })
	}
	return turn.SummaryOf(ctx, answer)
}

func descriptors(tools []dispatch.Tool) []contract.ToolDescriptor {
	var out []contract.ToolDescriptor
	for _, t := range tools {
		out = append(out, t.Descriptor())
	}
	return out
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
