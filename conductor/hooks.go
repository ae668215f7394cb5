package conductor

import (
	"bytes"
	"context"
	"fmt"
	"slices"

	"github.com/batonrt/baton/contract"
)

// Hooks is a registry of hooks that watch and shape a run. Each hook is
// registered with a name (for logs and records) and a priority; hooks of
// one kind run in ascending priority, equal priorities in the order they
// were registered. The zero value is an empty registry.
//
// Before-hooks fail closed: a before-model or before-tool hook that
// returns an error or panics blocks the model call or the tool call, as
// if it had blocked it, and is logged. After-hooks and observers are
// isolated: one that fails or panics is logged, and the run goes on as if
// it were not there (an after-tool hook's partial rewrite is undone).
//
// What a hook changes that the model will see is recorded: a tool call's
// rewritten arguments and result, and the hooks that rewrote them, in its
// ToolSettled, and the names of the hooks that rewrote a model request in
// the ModelReplied, so replay reproduces the run without the hooks.
//
// Hooks must return once their context is done. Model and tool hooks run
// on the run's own goroutines, on-run-end hooks on the agent's, so they
// should be quick. Register every hook before the Deps go to CreateAgent.
type Hooks struct {
	entries []hookEntry
	seq     int
}

// Verdict is a before-hook's decision: a non-empty Block stops the model
// call or the tool call, and is what the model (or the run's error) is
// told.
type Verdict struct {
	Block string
}

// BeforeModelHook may rewrite the request about to be sent, or block it;
// a blocked model call faults the run. The request's tool list, sampling
// options and output schema are its own to change; its history is the
// run's: replace it (req.History = ...) rather than edit its turns in
// place, or the run's own history changes with it, and so do the records
// of those turns that the default memory store keeps unencoded until it
// is read.
//
// The hooks see every request sent to the model, the summary requests
// compaction makes among them, marked req.Summary: its one user turn
// quotes the history being condensed, so a hook that takes secrets out
// of what the model reads, or adds what the provider requires, applies
// to it as to any call. A hook that means only the run's own turns
// returns at once for those; one that blocks a summary request makes
// compaction fall back to dropping old tool outputs, as a failed summary
// does, and the run goes on. What a hook rewrites in a summary request
// is not recorded: the summary it brings back is.
type BeforeModelHook func(ctx context.Context, req *contract.ModelRequest) (Verdict, error)

// AfterModelHook sees the model's answer (ModelReplied or ModelFailed)
// before it is recorded, a reply with its token estimate.
//
// The hooks see the replies to the summary requests compaction makes
// too, their turn marked contract.MarkSummary: a reply's text becomes
// the summary that replaces older history, so a host that audits or
// redacts what the model says must see it as it sees any reply. A hook
// that means only the run's own turns returns at once for those. A
// summary request that fails is not shown: compaction falls back, and
// its event says why.
type AfterModelHook func(ctx context.Context, sig contract.Signal) error

// BeforeToolHook may rewrite a call's arguments, or block the call; a
// blocked call's result is an error naming the reason, and the run goes
// on. A delegate call (delegate_NAME) is a tool call too: blocked, its
// child never begins; its task is the rules' and is not rewritten.
type BeforeToolHook func(ctx context.Context, call *contract.ToolCall) (Verdict, error)

// AfterToolHook may rewrite a call's outcome, a delegate call's answer
// among them; the rewritten one is recorded.
type AfterToolHook func(ctx context.Context, call contract.ToolCall, out *contract.ToolOutcome) error

// CompactionHook sees each summary that replaced older history.
type CompactionHook func(ctx context.Context, summary string)

// RunEndHook sees each run's terminal snapshot.
type RunEndHook func(ctx context.Context, snap contract.RunSnapshot)

type hookEntry struct {
	name     string
	priority int
	seq      int
	fn       any
}

func (h *Hooks) add(name string, priority int, fn any) {
	h.seq++
	h.entries = append(h.entries, hookEntry{name: name, priority: priority, seq: h.seq, fn: fn})
}

// BeforeModel registers a hook run before every model call.
func (h *Hooks) BeforeModel(name string, priority int, fn BeforeModelHook) { h.add(name, priority, fn) }

// AfterModel registers an observer of every model answer.
func (h *Hooks) AfterModel(name string, priority int, fn AfterModelHook) { h.add(name, priority, fn) }

// BeforeTool registers a hook run before every tool call.
func (h *Hooks) BeforeTool(name string, priority int, fn BeforeToolHook) { h.add(name, priority, fn) }

// AfterTool registers a hook run on every tool outcome.
func (h *Hooks) AfterTool(name string, priority int, fn AfterToolHook) { h.add(name, priority, fn) }

// OnCompaction registers an observer of every compaction summary.
func (h *Hooks) OnCompaction(name string, priority int, fn CompactionHook) {
	h.add(name, priority, fn)
}

// OnRunEnd registers an observer of every run's end.
func (h *Hooks) OnRunEnd(name string, priority int, fn RunEndHook) { h.add(name, priority, fn) }

// Len is the number of hooks registered.
func (h *Hooks) Len() int { return len(h.entries) }

// ordered returns the hooks of type T in the order they run.
func ordered[T any](h *Hooks) []namedHook[T] {
	var out []namedHook[T]
	entries := slices.Clone(h.entries)
	slices.SortStableFunc(entries, func(a, b hookEntry) int {
		if a.priority != b.priority {
			return a.priority - b.priority
		}
		return a.seq - b.seq
	})
	for _, e := range entries {
		if fn, ok := e.fn.(T); ok && !isNil(fn) {
			out = append(out, namedHook[T]{name: e.name, fn: fn})
		}
	}
	return out
}

// isNil reports whether a registered function is nil; a nil hook is
// skipped.
func isNil[T any](fn T) bool {
	switch f := any(fn).(type) {
	case BeforeModelHook:
		return f == nil
	case AfterModelHook:
		return f == nil
	case BeforeToolHook:
		return f == nil
	case AfterToolHook:
		return f == nil
	case CompactionHook:
		return f == nil
	case RunEndHook:
		return f == nil
	}
	return false
}

type namedHook[T any] struct {
	name string
	fn   T
}

// hookError says a hook failed or panicked.
func hookError(kind, name string, err error) error {
	return fmt.Errorf("conductor: %s hook %q: %w", kind, name, err)
}

// runBeforeModel runs the before-model hooks in order. It returns the
// reason the call is blocked ("" to send it) and the names of the hooks
// that rewrote the request. A hook that fails blocks the call.
func (a *Agent) runBeforeModel(ctx context.Context, req *contract.ModelRequest) (block string, rewrote []string) {
	hooks := ordered[BeforeModelHook](&a.deps.Hooks)
	if len(hooks) == 0 {
		return "", nil
	}
	ownRequest(req)
	for _, h := range hooks {
		// A copy of its own, so an edit in place shows against it.
		before := *req
		ownRequest(&before)
		var v Verdict
		err := guard(func() error {
			var err error
			v, err = h.fn(ctx, req)
			return err
		})
		if err != nil {
			a.log.Error("conductor: before_model hook failed; the model call is blocked", "hook", h.name, "err", err)
			return fmt.Sprintf("before_model hook %q failed: %v", h.name, err), rewrote
		}
		if v.Block != "" {
			return fmt.Sprintf("blocked by %s: %s", h.name, v.Block), rewrote
		}
		if requestChanged(before, *req) {
			rewrote = append(rewrote, h.name)
		}
	}
	return "", rewrote
}

// ownRequest gives req its own copies of what it shares with the agent's
// rules and config (the tool list, the sampling options, the output
// schema), so a hook that edits them in place changes this request
// only: not which tools need approval, nor the next request.
func ownRequest(req *contract.ModelRequest) {
	req.Tools = slices.Clone(req.Tools)
	s := &req.Sampling
	s.Temperature = clonePtr(s.Temperature)
	s.TopP = clonePtr(s.TopP)
	s.Seed = clonePtr(s.Seed)
	s.ParallelToolCalls = clonePtr(s.ParallelToolCalls)
	s.Stop = slices.Clone(s.Stop)
	req.Output = clonePtr(req.Output)
}

func clonePtr[T any](p *T) *T {
	if p == nil {
		return nil
	}
	c := *p
	return &c
}

// requestChanged reports whether a hook changed any part of the request
// the model sees; the turn number is not the hook's to change.
func requestChanged(a, b contract.ModelRequest) bool {
	return a.Model != b.Model || a.System != b.System || a.MaxOutputTokens != b.MaxOutputTokens ||
		a.Thinking != b.Thinking || !a.History.Equal(b.History) ||
		!slices.EqualFunc(a.Tools, b.Tools, sameTool) || !sameSampling(&a.Sampling, &b.Sampling) ||
		!samePtr(a.Output, b.Output, func(x, y *contract.OutputSchema) bool {
			return x.Name == y.Name && x.MaxRetries == y.MaxRetries && bytes.Equal(x.Schema, y.Schema)
		})
}

func sameTool(x, y contract.ToolDescriptor) bool {
	return x.Name == y.Name && x.Description == y.Description && bytes.Equal(x.InputSchema, y.InputSchema) &&
		x.Idempotent == y.Idempotent && x.NeedsApproval == y.NeedsApproval && x.AsksHuman == y.AsksHuman &&
		x.Sequential == y.Sequential && x.Timeout == y.Timeout && x.Delegate == y.Delegate && x.OwnGoroutine == y.OwnGoroutine
}

func sameSampling(x, y *contract.Sampling) bool {
	return samePtr(x.Temperature, y.Temperature, eqPtr) && samePtr(x.TopP, y.TopP, eqPtr) &&
		samePtr(x.Seed, y.Seed, eqPtr) && samePtr(x.ParallelToolCalls, y.ParallelToolCalls, eqPtr) &&
		slices.Equal(x.Stop, y.Stop) && x.ToolChoice == y.ToolChoice
}

// samePtr reports whether x and y are both nil, or both set and equal.
func samePtr[T any](x, y *T, equal func(x, y *T) bool) bool {
	if x == nil || y == nil {
		return x == y
	}
	return equal(x, y)
}

func eqPtr[T comparable](x, y *T) bool { return *x == *y }

// runBeforeTool runs the before-tool hooks in order on a copy of the
// call. It returns the call as the hooks left it, the reason it is
// blocked ("" to run it) and the names of the hooks that rewrote its
// arguments. A hook that fails blocks the call.
func (a *Agent) runBeforeTool(ctx context.Context, call contract.ToolCall) (contract.ToolCall, string, []string) {
	var rewrote []string
	for _, h := range ordered[BeforeToolHook](&a.deps.Hooks) {
		c := call
		var v Verdict
		err := guard(func() error {
			var err error
			v, err = h.fn(ctx, &c)
			return err
		})
		if err != nil {
			a.log.Error("conductor: before_tool hook failed; the call is blocked", "hook", h.name, "call", call.ID, "err", err)
			return call, fmt.Sprintf("before_tool hook %q failed: %v", h.name, err), rewrote
		}
		if v.Block != "" {
			return call, v.Block, rewrote
		}
		// Only the arguments may change: the id and name tie the call to
		// the model's turn.
		if c.Arguments != call.Arguments {
			call.Arguments = validText(c.Arguments)
			rewrote = append(rewrote, h.name)
		}
	}
	return call, "", rewrote
}

// runAfterTool runs the after-tool hooks in order; a hook that fails is
// logged and its changes undone.
func (a *Agent) runAfterTool(ctx context.Context, call contract.ToolCall, out contract.ToolOutcome) (contract.ToolOutcome, []string) {
	var rewrote []string
	for _, h := range ordered[AfterToolHook](&a.deps.Hooks) {
		o := out
		if err := guard(func() error { return h.fn(ctx, call, &o) }); err != nil {
			a.log.Warn("conductor: after_tool hook failed; its changes are dropped", "hook", h.name, "call", call.ID, "err", hookError("after_tool", h.name, err))
			continue
		}
		if o != out {
			out = o
			rewrote = append(rewrote, h.name)
		}
	}
	return out, rewrote
}

// observe runs observers of type T in order, isolating each.
func observe[T any](a *Agent, kind string, call func(T) error) {
	for _, h := range ordered[T](&a.deps.Hooks) {
		if err := guard(func() error { return call(h.fn) }); err != nil {
			a.log.Warn("conductor: hook failed", "kind", kind, "hook", h.name, "err", err)
		}
	}
}
