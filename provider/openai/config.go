package openai

import (
	"github.com/batonrt/baton/contract"
	"github.com/batonrt/baton/turn"
)

var _ turn.ConfigChecker = (*Provider)(nil)

// CheckConfig names the parts of cfg the API refuses, so an agent is
// refused when it is created rather than on its first model call: the
// options cfg's model refuses by OpenAI's rules where the provider
// follows them (see Rules), and tool schemas no request could carry. An agent
// asking for one tool call per reply is refused on a model that cannot
// be asked, tools or not. Under rules none of the known ones, every
// config is refused.
func (p *Provider) CheckConfig(cfg contract.AgentConfig) []contract.FieldError {
	if p.send.refusal != "" {
		return []contract.FieldError{{Field: "Model", Reason: "cannot be asked: " + p.send.refusal}}
	}
	var bad []contract.FieldError
	if p.send.modelRules {
		bad = modelConflicts(cfg.Model, cfg.Thinking, cfg.Sampling, true)
	}
	return append(bad, turn.ToolSchemaErrors(cfg.Tools)...)
}
