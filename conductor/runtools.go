package conductor

import (
	"slices"

	"github.com/batonrt/baton/contract"
	"github.com/batonrt/baton/dispatch"
)

// inputSignal applies the signal made of in's turns to the run in
// flight. The turns are made, and counted, on the caller's goroutine.
func (a *Agent) inputSignal(in Input, make func([]contract.Turn) contract.Signal) error {
	turns := in.turns(a.est)
	return a.hostSignal(func() (contract.Signal, error) {
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
// hosts that hand the same tools to every Submit. In turn (enqueue).
func (a *Agent) unoffered(tools []dispatch.Tool) error {
	for _, t := range tools {
		name := t.Descriptor().Name
		named := func(d contract.ToolDescriptor) bool { return d.Name == name }
		if !slices.ContainsFunc(a.state.RunTools, named) && !slices.ContainsFunc(a.rules.Config().Tools, named) {
			return contract.NewError(contract.KindConfig, "tool %q is not offered by the run in flight; a run's tools are set when it starts", name)
		}
	}
	return nil
}
