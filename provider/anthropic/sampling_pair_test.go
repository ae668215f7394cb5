package anthropic

import (
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/batonrt/baton/contract"
	"github.com/batonrt/baton/turn/transcripttest"
)

// TestTemperatureOrTopP: Claude Opus 4.1, and the 4.5 models and later,
// refuse a request that sets both temperature and top_p ("temperature
// and top_p cannot both be specified for this model"). One of them at
// its default (1) is left off, which asks for the same; both away from
// it are refused before sending. Older models take both.
func TestTemperatureOrTopP(t *testing.T) {
	one, cold, nucleus, wide := 1.0, 0.2, 0.9, 0.95
	tests := []struct {
		model    string
		thinking contract.ThinkingLevel
		sampling contract.Sampling
		want     map[string]any
	}{
		{"claude-sonnet-4-5", "", contract.Sampling{Temperature: &one, TopP: &nucleus}, map[string]any{"top_p": 0.9}},
		{"claude-haiku-4-5-20251001", "", contract.Sampling{Temperature: &cold, TopP: &one}, map[string]any{"temperature": 0.2}},
		{"claude-sonnet-4-5", contract.ThinkingLow, contract.Sampling{Temperature: &one, TopP: &wide}, map[string]any{"top_p": 0.95}},
		{"claude-opus-4-6", "", contract.Sampling{Temperature: &one, TopP: &one}, map[string]any{"top_p": 1.0}},
		{"claude-sonnet-4-20250514", "", contract.Sampling{Temperature: &cold, TopP: &nucleus}, map[string]any{"temperature": 0.2, "top_p": 0.9}},
		{"claude-3-7-sonnet-latest", "", contract.Sampling{Temperature: &cold, TopP: &nucleus}, map[string]any{"temperature": 0.2, "top_p": 0.9}},
	}
	for _, tt := range tests {
		t.Run(tt.model, func(t *testing.T) {
			req := basicRequest()
			req.Model, req.Thinking, req.Sampling = tt.model, tt.thinking, tt.sampling
			if diff := cmp.Diff(tt.want, suite.Sent(t, req, "temperature", "top_p")); diff != "" {
				t.Errorf("mismatch (-want +got):\n%s", diff)
			}
		})
	}
	both := func(model string) func(*contract.ModelRequest) {
		return func(r *contract.ModelRequest) {
			r.Model, r.Sampling = model, contract.Sampling{Temperature: &cold, TopP: &nucleus}
		}
	}
	suite.BadRequests(t, ErrBadRequest, []transcripttest.BadRequest{
		{Name: "sonnet 4.5", Names: "Sampling.TopP", Edit: both("claude-sonnet-4-5-20250929")},
		{Name: "opus 4.1", Names: "Sampling.TopP", Edit: both("claude-opus-4-1")},
		{Name: "a router's name", Names: "Sampling.TopP", Edit: both("anthropic/claude-haiku-4-5")},
	})
	transcripttest.CheckConfig(t, New(), []transcripttest.ConfigCase{
		{Name: "both on sonnet 4.5", Config: contract.AgentConfig{Model: "claude-sonnet-4-5", Sampling: contract.Sampling{Temperature: &cold, TopP: &nucleus}}, Fields: []string{"Sampling.TopP"}},
		{Name: "both on sonnet 4", Config: contract.AgentConfig{Model: "claude-sonnet-4-0", Sampling: contract.Sampling{Temperature: &cold, TopP: &nucleus}}},
	})
}
