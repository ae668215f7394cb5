package conductor

import (
	"fmt"

	"github.com/batonrt/baton/contract"
	"github.com/batonrt/baton/dispatch"
)

// resolveDelegates fills in the tools of every delegate, at every depth,
// from the box: a host may declare them by name alone. A tool the box
// lacks is reported, so a bad delegate fails CreateAgent, not a run.
func resolveDelegates(ds []contract.Delegate, box *dispatch.ToolBox, field string) ([]contract.Delegate, []contract.FieldError) {
	if len(ds) == 0 {
		return ds, nil
	}
	var bad []contract.FieldError
	out := make([]contract.Delegate, len(ds))
	for i, d := range ds {
		f := fmt.Sprintf("%s[%d].Config", field, i)
		tools := make([]contract.ToolDescriptor, len(d.Config.Tools))
		for j, t := range d.Config.Tools {
			impl, ok := box.Lookup(t.Name)
			if !ok {
				bad = append(bad, contract.FieldError{Field: fmt.Sprintf("%s.Tools[%d]", f, j), Reason: fmt.Sprintf("%q has no implementation in Deps.Tools", t.Name)})
				tools[j] = t
				continue
			}
			tools[j] = impl.Descriptor()
		}
		d.Config.Tools = tools
		var nested []contract.FieldError
		d.Config.Delegates, nested = resolveDelegates(d.Config.Delegates, box, f+".Delegates")
		bad = append(bad, nested...)
		out[i] = d
	}
	return out, bad
}

// delegateNames collects the names of the delegates at every depth.
func delegateNames(ds []contract.Delegate, into map[string]bool) {
	for _, d := range ds {
		into[d.Name] = true
		delegateNames(d.Config.Delegates, into)
	}
}

// delegateErrors checks what CreateAgent is given for delegation beyond
// the config's own rules.
func delegateErrors(cfg contract.AgentConfig, deps Deps) []contract.FieldError {
	var bad []contract.FieldError
	names := map[string]bool{}
	delegateNames(cfg.Delegates, names)
	for name, p := range deps.DelegateProviders {
		switch {
		case !names[name]:
			bad = append(bad, contract.FieldError{Field: "Deps.DelegateProviders[" + name + "]", Reason: "names no delegate"})
		case p == nil:
			bad = append(bad, contract.FieldError{Field: "Deps.DelegateProviders[" + name + "]", Reason: "is nil"})
		}
	}
	return bad
}
