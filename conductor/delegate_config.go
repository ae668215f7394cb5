package conductor

import (
	"fmt"

	"github.com/batonrt/baton/contract"
	"github.com/batonrt/baton/dispatch"
	"github.com/batonrt/baton/turn"
)

// resolveDelegates returns cfg's delegates with the tools of every
// delegate, at every depth, filled in from the box, as offeredTools does
// for the agent's own; a delegate that names no tools has none. Where
// delegates are no longer offered (the depth cap, as ChildConfig
// carries it down) they are cut: they never run, and a config whose
// delegates form a cycle (one Go value referring to itself) must come
// out finite, to be walked and recorded.
func resolveDelegates(cfg contract.AgentConfig, box *dispatch.ToolBox, field string) ([]contract.Delegate, []contract.FieldError) {
	if cfg.Depth < 0 || cfg.DelegationDepthLimit() > contract.MaxDelegationDepthLimit || !cfg.OffersDelegates() {
		// Validate refuses a depth or a cap out of range.
		return nil, nil
	}
	var bad []contract.FieldError
	out := make([]contract.Delegate, len(cfg.Delegates))
	for i, d := range cfg.Delegates {
		f := fmt.Sprintf("%s[%d].Config", field, i)
		var toolsBad, nested []contract.FieldError
		d.Config.Tools, toolsBad = offeredTools(d.Config.Tools, box, f+".Tools", false)
		d.Config.Delegates, nested = resolveDelegates(cfg.ChildConfig(d), box, f+".Delegates")
		bad = append(append(bad, toolsBad...), nested...)
		out[i] = d
	}
	return out, bad
}

// delegateNames collects the names of the delegates at every depth.
func delegateNames(ds []contract.Delegate, into map[string]bool) {
	declaredNames(ds, into, map[*contract.Delegate]bool{})
}

// declaredNames is delegateNames for a list as the host declared it,
// before resolveDelegates cut it at the depth cap: each list is walked
// once, so a list that holds itself (a cycle of delegates) ends.
func declaredNames(ds []contract.Delegate, into map[string]bool, seen map[*contract.Delegate]bool) {
	if len(ds) == 0 || seen[&ds[0]] {
		return
	}
	seen[&ds[0]] = true
	for _, d := range ds {
		into[d.Name] = true
		declaredNames(d.Config.Delegates, into, seen)
	}
}

// delegateErrors checks what CreateAgent is given for delegation beyond
// the config's own rules; declared is the config's delegates as given.
// A provider may be given for a delegate declared only below the depth
// cap, which never runs.
func delegateErrors(declared []contract.Delegate, deps Deps) []contract.FieldError {
	var bad []contract.FieldError
	names := map[string]bool{}
	delegateNames(declared, names)
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
