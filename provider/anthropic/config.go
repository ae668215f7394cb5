package anthropic

import (
	"github.com/batonrt/baton/contract"
	"github.com/batonrt/baton/turn"
)

var _ turn.ConfigChecker = (*Provider)(nil)

// CheckConfig names the parts of cfg the Messages API refuses, so an agent
// is refused when it is created rather than on its first model call.
func (p *Provider) CheckConfig(cfg contract.AgentConfig) []contract.FieldError {
	bad := append(thinkingConflicts(cfg.Thinking, cfg.Sampling, true), oneSamplerConflicts(cfg.Model, cfg.Sampling)...)
	return append(bad, turn.ToolSchemaErrors(cfg.Tools)...)
}
