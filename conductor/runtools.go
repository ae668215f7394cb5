package conductor

import (
	"context"
	"fmt"
	"slices"

	"github.com/batonrt/baton/contract"
	"github.com/batonrt/baton/dispatch"
)

// SetRunTools replaces the own tools of the run in flight (what its
// Submit gave as Input.Tools, or an earlier SetRunTools) with tools, for
// a host whose tool source changed while the run goes on, such as an MCP
// server that said its tool list changed. The swap is recorded
// (contract.ToolsChanged), so the session replays as it ran. The next
// model call offers the agent's tools with these; a call the model makes
// after the swap to a tool no longer offered gets an unknown-tool error
// result, which it can read, and the run goes on; calls made before the
// swap, running or queued, run and finish as they were. The same tools
// again are no change, and nothing is recorded. Delegates' child runs
// keep their own tools.
//
// It returns ErrNoRun when no run is in flight (the next Submit brings
// its tools), an error matching ErrRejected when the run follows a rules
// revision before contract.RevisionToolsChanged, which keeps its
// submit's tools until it ends, a config error when tools and the
// agent's cannot make one tool box, the store's error when the swap could
// not be recorded, and ctx's error, swapping nothing, when ctx is done
// before the call.
func (a *Agent) SetRunTools(ctx context.Context, tools ...dispatch.Tool) error {
	return a.call(ctx, func() error {
		if a.failed != nil {
			return a.failed
		}
		if a.run == nil || !a.state.Phase.InFlight() {
			return ErrNoRun
		}
		if a.state.Revision < contract.RevisionToolsChanged {
			return fmt.Errorf("%w: the run follows rules revision %d, which keeps its tools until it ends", ErrRejected, a.state.Revision)
		}
		box, err := a.deps.Tools.Box.With(tools...)
		if err != nil {
			return contract.WrapError(contract.KindConfig, err, "set run tools")
		}
		offered := descriptors(tools)
		if slices.EqualFunc(a.state.RunTools, offered, sameTool) {
			return nil
		}
		if offered == nil {
			// The run offers none of its own any more: recorded as an
			// empty list, which says so, rather than as null.
			offered = []contract.ToolDescriptor{}
		}
		if err := a.applyInput(contract.ToolsChanged{Tools: offered, At: a.now()}); err != nil {
			return err
		}
		run := a.run
		run.former = append(run.former, run.box.Load())
		run.box.Store(box)
		return nil
	})
}

// tool returns the implementation of a call the rules started: the run's
// tool box's, or, for a call the model made before the run's tools were
// swapped to a list without it, the one it was made with. The rules
// answer a call of a tool they no longer offer themselves, so a call
// reaching here is one they took.
func (run *runState) tool(name string) (dispatch.Tool, bool) {
	if t, ok := run.box.Load().Lookup(name); ok {
		return t, true
	}
	for i := len(run.former) - 1; i >= 0; i-- {
		if t, ok := run.former[i].Lookup(name); ok {
			return t, true
		}
	}
	return nil, false
}

// inputSignal applies the signal made of in's turns to the run in
// flight; ctx is as for call. The turns are made, and counted, on the
// caller's goroutine.
func (a *Agent) inputSignal(ctx context.Context, in Input, make func([]contract.Turn) contract.Signal) error {
	if err := in.check(); err != nil {
		return err
	}
	turns := in.turns(a.est)
	return a.hostSignal(ctx, func() (contract.Signal, error) {
		if err := a.unoffered(in.Tools); err != nil {
			return nil, err
		}
		return make(turns), nil
	})
}

// unoffered refuses input for the run in flight that brings a tool the
// run does not offer: a run's tools are recorded with its submit and
// fixed from then on, so such a tool would be dropped while the input
// that asks for it reached the model. Tools it offers already pass, for
// hosts that hand the same tools to every Submit; a nil tool is refused
// too, as a new run's box refuses it. In turn (enqueue).
func (a *Agent) unoffered(tools []dispatch.Tool) error {
	for i, t := range tools {
		if t == nil {
			return contract.NewError(contract.KindConfig, "tool %d of the input is nil", i)
		}
		name := t.Descriptor().Name
		named := func(d contract.ToolDescriptor) bool { return d.Name == name }
		if !slices.ContainsFunc(a.state.RunTools, named) && !slices.ContainsFunc(a.rules.Config().Tools, named) {
			return contract.NewError(contract.KindConfig, "tool %q is not offered by the run in flight; a run's tools are set when it starts", name)
		}
	}
	return nil
}
