package anthropic

import (
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/batonrt/baton/contract"
	"github.com/batonrt/baton/turn/transcripttest"
)

// TestModelLimits checks what goes on the wire where a model limits
// what it takes.
//
// Claude Opus 4.1, and every model from 4.5 on, refuse temperature and
// top_p together ("temperature and top_p cannot both be specified for
// this model"): one at its default (1) is left off, which asks for the
// same; older models take both.
//
// max_tokens, the answer's length plus the thinking budget, must not
// pass the model's output cap ("max_tokens: 40576 > 32000, which is the
// maximum allowed number of output tokens for claude-opus-4-1"): where
// the level's budget would pass it, the budget is cut to what fits;
// models whose cap is not known get the level's budget.
func TestModelLimits(t *testing.T) {
	one, cold, nucleus, wide := 1.0, 0.2, 0.9, 0.95
	thinks := func(budget float64) map[string]any { return map[string]any{"type": "enabled", "budget_tokens": budget} }
	tests := []struct {
		model     string
		thinking  contract.ThinkingLevel
		maxOutput int
		sampling  contract.Sampling
		want      map[string]any
	}{
		{"claude-sonnet-4-5", "", 256, contract.Sampling{Temperature: &one, TopP: &nucleus}, map[string]any{"max_tokens": 256.0, "top_p": 0.9}},
		{"claude-haiku-4-5-20251001", "", 256, contract.Sampling{Temperature: &cold, TopP: &one}, map[string]any{"max_tokens": 256.0, "temperature": 0.2}},
		{"claude-sonnet-4-5", contract.ThinkingLow, 256, contract.Sampling{Temperature: &one, TopP: &wide}, map[string]any{"max_tokens": 2304.0, "thinking": thinks(2048), "top_p": 0.95}},
		{"claude-opus-4-6", "", 256, contract.Sampling{Temperature: &one, TopP: &one}, map[string]any{"max_tokens": 256.0, "top_p": 1.0}},
		{"claude-sonnet-4-20250514", "", 256, contract.Sampling{Temperature: &cold, TopP: &nucleus}, map[string]any{"max_tokens": 256.0, "temperature": 0.2, "top_p": 0.9}},
		{"claude-3-7-sonnet-latest", "", 256, contract.Sampling{Temperature: &cold, TopP: &nucleus}, map[string]any{"max_tokens": 256.0, "temperature": 0.2, "top_p": 0.9}},
		{"claude-opus-4-1", contract.ThinkingHigh, 16000, contract.Sampling{}, map[string]any{"max_tokens": 32000.0, "thinking": thinks(16000)}},
		{"claude-opus-4-20250514", contract.ThinkingHigh, 0, contract.Sampling{}, map[string]any{"max_tokens": 28672.0, "thinking": thinks(24576)}},
		{"claude-sonnet-4-5", contract.ThinkingHigh, 16000, contract.Sampling{}, map[string]any{"max_tokens": 40576.0, "thinking": thinks(24576)}},
		{"claude-3-7-sonnet-latest", contract.ThinkingHigh, 50000, contract.Sampling{}, map[string]any{"max_tokens": 64000.0, "thinking": thinks(14000)}},
		{"claude-next", contract.ThinkingHigh, 60000, contract.Sampling{}, map[string]any{"max_tokens": 84576.0, "thinking": thinks(24576)}},
	}
	for _, tt := range tests {
		t.Run(tt.model, func(t *testing.T) {
			req := basicRequest()
			req.Model, req.Thinking, req.MaxOutputTokens, req.Sampling = tt.model, tt.thinking, tt.maxOutput, tt.sampling
			if diff := cmp.Diff(tt.want, suite.Sent(t, req, "temperature", "top_p", "max_tokens", "thinking")); diff != "" {
				t.Errorf("mismatch (-want +got):\n%s", diff)
			}
		})
	}
}

// TestModelLimitRefusals: temperature and top_p both away from their
// default on a model that takes one, an answer longer than the model's
// cap or leaving under the API's smallest thinking budget (1024) for
// thinking, and thinking on a model that cannot think are refused before
// sending and when the agent is created.
func TestModelLimitRefusals(t *testing.T) {
	cold, nucleus := 0.2, 0.9
	both := contract.Sampling{Temperature: &cold, TopP: &nucleus}
	ask := func(model string, thinking contract.ThinkingLevel, maxOutput int, s contract.Sampling) func(*contract.ModelRequest) {
		return func(r *contract.ModelRequest) {
			r.Model, r.Thinking, r.MaxOutputTokens, r.Sampling = model, thinking, maxOutput, s
		}
	}
	suite.BadRequests(t, ErrBadRequest, []transcripttest.BadRequest{
		{Name: "both on sonnet 4.5", Names: "Sampling.TopP", Edit: ask("claude-sonnet-4-5-20250929", "", 256, both)},
		{Name: "both on opus 4.1", Names: "Sampling.TopP", Edit: ask("claude-opus-4-1", "", 256, both)},
		{Name: "both through a router", Names: "Sampling.TopP", Edit: ask("anthropic/claude-haiku-4-5", "", 256, both)},
		{Name: "no room to think", Names: "MaxOutputTokens", Edit: ask("claude-opus-4-1", contract.ThinkingLow, 31500, contract.Sampling{})},
		{Name: "past the cap", Names: "MaxOutputTokens", Edit: ask("claude-opus-4-1-20250805", "", 40000, contract.Sampling{})},
		{Name: "cannot think", Names: "Thinking", Edit: ask("claude-3-5-haiku-latest", contract.ThinkingLow, 0, contract.Sampling{})},
	})
	transcripttest.CheckConfig(t, New(), []transcripttest.ConfigCase{
		{Name: "both on sonnet 4.5", Config: contract.AgentConfig{Model: "claude-sonnet-4-5", Sampling: both}, Fields: []string{"Sampling.TopP"}},
		{Name: "both on sonnet 4", Config: contract.AgentConfig{Model: "claude-sonnet-4-0", Sampling: both}},
		{Name: "no room to think", Config: contract.AgentConfig{Model: "claude-opus-4-1", Thinking: contract.ThinkingHigh, MaxOutputTokens: 31500}, Fields: []string{"MaxOutputTokens"}},
		{Name: "cannot think", Config: contract.AgentConfig{Model: "claude-3-5-sonnet-latest", Thinking: contract.ThinkingLow}, Fields: []string{"Thinking"}},
		{Name: "the default answer", Config: contract.AgentConfig{Model: "claude-opus-4-1", Thinking: contract.ThinkingHigh}},
	})
}
