package anthropic

import (
	"github.com/batonrt/baton/contract"
	"github.com/batonrt/baton/turn"
)

var _ turn.ConfigChecker = (*Provider)(nil)

// CheckConfig names the parts of cfg the Messages API refuses, so an agent
// is refused when it is created rather than on its first model call.
func (p *Provider) CheckConfig(cfg contract.AgentConfig) []contract.FieldError {
	return append(conflicts(cfg.Model, cfg.Thinking, cfg.Sampling, cfg.MaxOutputTokens, true), turn.ToolSchemaErrors(cfg.Tools)...)
}

// conflicts names the options the API refuses for model together. withTools
// says whether a tool choice would be sent (it is not without tools).
func conflicts(model string, thinking contract.ThinkingLevel, s contract.Sampling, maxOutput int, withTools bool) []contract.FieldError {
	bad := thinkingConflicts(thinking, s, withTools)
	bad = append(bad, oneSamplerConflicts(model, s)...)
	return append(bad, limitConflicts(model, thinking, maxOutput)...)
}
