package conductor

import (
	"fmt"

	"github.com/batonrt/baton/contract"
	"github.com/batonrt/baton/dispatch"
	"github.com/batonrt/baton/turn"
)

// resolveDelegates fills in the tools of every delegate, at every depth,
// from the box, as offeredTools does for the agent's own; a delegate that
// names no tools has none.
func resolveDelegates(ds []contract.Delegate, box *dispatch.ToolBox, field string) ([]contract.Delegate, []contract.FieldError) {
	if len(ds) == 0 {
		return ds, nil
	}
	var bad []contract.FieldError
	out := make([]contract.Delegate, len(ds))
	for i, d := range ds {
		f := fmt.Sprintf("%s[%d].Config", field, i)
		var toolsBad, nested []contract.FieldError
		d.Config.Tools, toolsBad = offeredTools(d.Config.Tools, box, f+".Tools", false)
		d.Config.Delegates, nested = resolveDelegates(d.Config.Delegates, box, f+".Delegates")
		bad = append(append(bad, toolsBad...), nested...)
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
	for name, p := range deps.Model.Delegates {
		switch {
		case !names[name]:
			bad = append(bad, contract.FieldError{Field: "Deps.Model.Delegates[" + name + "]", Reason: "names no delegate"})
		case p == nil:
			bad = append(bad, contract.FieldError{Field: "Deps.Model.Delegates[" + name + "]", Reason: "is nil"})
		}
	}
	return bad
}

// providerErrors asks each provider that checks configs about the config
// it will answer: the agent's own, and each delegate's, whose provider is
// the one Deps.Model.Delegates gives it or else its parent's.
func providerErrors(cfg contract.AgentConfig, p turn.Provider, own map[string]turn.Provider, field string) []contract.FieldError {
	var bad []contract.FieldError
	if c, ok := p.(turn.ConfigChecker); ok {
		for _, f := range c.CheckConfig(cfg) {
			f.Field = field + f.Field
			bad = append(bad, f)
		}
	}
	for i, d := range cfg.Delegates {
		dp := p
		if q, ok := own[d.Name]; ok && q != nil {
			dp = q
		}
		bad = append(bad, providerErrors(d.Config, dp, own, fmt.Sprintf("%sDelegates[%d].Config.", field, i))...)
	}
	return bad
}
