package openai

import (
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/batonrt/baton/contract"
	"github.com/batonrt/baton/turn/transcripttest"
)

// TestReasoningModelRequests: OpenAI's reasoning models (o1, o3, o4-mini,
// the gpt-5 family) answer 400 to options other models take (see
// TestReasoningModelRefusals). A default the API refuses to be told
// (temperature or top_p 1, parallel calls on) is left off; the length
// limit always goes as max_completion_tokens, never max_tokens; the
// thinking level goes as reasoning_effort; a model named as none of
// OpenAI's gets what was asked. Requests go to OpenAI's base URL, where
// the rules apply (see TestRulesOnlyAtOpenAI).
func TestReasoningModelRequests(t *testing.T) {
	one, cold, nucleus, seed, serial, parallel := 1.0, 0.2, 0.9, int64(7), false, true
	tests := []struct {
		model    string
		thinking contract.ThinkingLevel
		sampling contract.Sampling
		want     map[string]any
	}{
		{"o4-mini", contract.ThinkingHigh, contract.Sampling{Temperature: &one, TopP: &one, Seed: &seed, ParallelToolCalls: &parallel, ToolChoice: contract.ToolChoiceRequired},
			map[string]any{"max_completion_tokens": 256.0, "reasoning_effort": "high", "seed": 7.0, "tool_choice": "required"}},
		{"o3", contract.ThinkingOff, contract.Sampling{}, map[string]any{"max_completion_tokens": 256.0}},
		{"gpt-5-nano", contract.ThinkingLow, contract.Sampling{ParallelToolCalls: &serial, TopP: &one},
			map[string]any{"max_completion_tokens": 256.0, "reasoning_effort": "low", "parallel_tool_calls": false}},
		{"gpt-5.1", contract.ThinkingOff, contract.Sampling{Temperature: &cold, TopP: &nucleus},
			map[string]any{"max_completion_tokens": 256.0, "temperature": 0.2, "top_p": 0.9}},
		{"gpt-4.1", contract.ThinkingOff, contract.Sampling{Temperature: &cold, Stop: []string{"END"}},
			map[string]any{"max_completion_tokens": 256.0, "temperature": 0.2, "stop": []any{"END"}}},
		{"gpt-5.1-chat-latest", contract.ThinkingLow, contract.Sampling{Temperature: &cold},
			map[string]any{"max_completion_tokens": 256.0, "reasoning_effort": "low", "temperature": 0.2}},
		{"qwen3:8b", contract.ThinkingLow, contract.Sampling{Temperature: &cold, Stop: []string{"END"}, ParallelToolCalls: &serial},
			map[string]any{"max_completion_tokens": 256.0, "reasoning_effort": "low", "temperature": 0.2, "stop": []any{"END"}, "parallel_tool_calls": false}},
	}
	for _, tt := range tests {
		t.Run(tt.model, func(t *testing.T) {
			req := basicRequest()
			req.Model, req.Thinking, req.Sampling = tt.model, tt.thinking, tt.sampling
			got := atOpenAI.Sent(t, req, "temperature", "top_p", "stop", "seed", "parallel_tool_calls", "tool_choice",
				"max_tokens", "max_completion_tokens", "reasoning_effort")
			if diff := cmp.Diff(tt.want, got); diff != "" {
				t.Errorf("mismatch (-want +got):\n%s", diff)
			}
		})
	}
}

// TestReasoningModelRefusals: reasoning models refuse temperature and
// top_p other than 1 ("Only the default (1) value is supported"), o-series
// and gpt-5 models stop, and o-series models parallel_tool_calls
// ("Unsupported parameter"); gpt-5.1 and later take temperature and top_p
// only without reasoning, their default. Models that do not reason refuse
// reasoning_effort. Such a request fails before it is sent, naming the
// option. The requests go to OpenAI's base URL, where the rules apply.
func TestReasoningModelRefusals(t *testing.T) {
	cold, nucleus, serial := 0.2, 0.9, false
	ask := func(model string, thinking contract.ThinkingLevel, s contract.Sampling) func(*contract.ModelRequest) {
		return func(r *contract.ModelRequest) { r.Model, r.Thinking, r.Sampling = model, thinking, s }
	}
	atOpenAI.BadRequests(t, ErrBadRequest, []transcripttest.BadRequest{
		{Name: "o3 cold", Names: "Sampling.Temperature", Edit: ask("o3", "", contract.Sampling{Temperature: &cold})},
		{Name: "o3-mini nucleus", Names: "Sampling.TopP", Edit: ask("o3-mini", "", contract.Sampling{TopP: &nucleus})},
		{Name: "o1 stop", Names: "Sampling.Stop", Edit: ask("o1", "", contract.Sampling{Stop: []string{"END"}})},
		{Name: "o4-mini serial", Names: "Sampling.ParallelToolCalls", Edit: ask("o4-mini-2025-04-16", "", contract.Sampling{ParallelToolCalls: &serial})},
		{Name: "o1-mini effort", Names: "Thinking", Edit: ask("o1-mini", contract.ThinkingLow, contract.Sampling{})},
		{Name: "gpt-5 cold", Names: "Sampling.Temperature", Edit: ask("gpt-5", "", contract.Sampling{Temperature: &cold})},
		{Name: "gpt-5-mini stop", Names: "Sampling.Stop", Edit: ask("gpt-5-mini", "", contract.Sampling{Stop: []string{"END"}})},
		{Name: "gpt-5.2 reasoning cold", Names: "Sampling.Temperature", Edit: ask("gpt-5.2", contract.ThinkingMedium, contract.Sampling{Temperature: &cold})},
		{Name: "gpt-5.1 stop", Names: "Sampling.Stop", Edit: ask("gpt-5.1", "", contract.Sampling{Stop: []string{"END"}})},
		{Name: "gpt-4o-mini effort", Names: "Thinking", Edit: ask("gpt-4o-mini", contract.ThinkingLow, contract.Sampling{})},
		{Name: "gpt-5-chat-latest effort", Names: "Thinking", Edit: ask("gpt-5-chat-latest", contract.ThinkingLow, contract.Sampling{})},
		{Name: "fine-tuned o4-mini cold", Names: "Sampling.Temperature", Edit: ask("ft:o4-mini-2025-04-16:acme:triage:AbC123", "", contract.Sampling{Temperature: &cold})},
		{Name: "fine-tuned gpt-4o-mini effort", Names: "Thinking", Edit: ask("ft:gpt-4o-mini-2024-07-18:acme::AbC123", contract.ThinkingLow, contract.Sampling{})},
	})
}

// TestCheckConfig: options a model refuses, and a tool schema no request
// could carry, are found in an agent's config before any run, in the
// delegates' configs as well. New's base URL is OpenAI's, where the rules
// apply.
func TestCheckConfig(t *testing.T) {
	cold, serial := 0.2, false
	transcripttest.CheckConfig(t, New(), []transcripttest.ConfigCase{
		{Name: "a chat model", Config: contract.AgentConfig{Model: "gpt-4.1", Sampling: contract.Sampling{Temperature: &cold}}},
		{Name: "a reasoning model, cold, one call at a time", Config: contract.AgentConfig{Model: "o3", Sampling: contract.Sampling{Temperature: &cold, ParallelToolCalls: &serial}},
			Fields: []string{"Sampling.Temperature", "Sampling.ParallelToolCalls"}},
		{Name: "thinking on a chat model", Config: contract.AgentConfig{Model: "gpt-4o", Thinking: contract.ThinkingHigh}, Fields: []string{"Thinking"}},
		{Name: "a union tool schema", Config: contract.AgentConfig{Model: "gpt-4.1", Tools: []contract.ToolDescriptor{
			{Name: "merged", InputSchema: []byte(`{"anyOf":[{"type":"object"},{"properties":{"a":{}}}]}`)},
			{Name: "scalar", InputSchema: []byte(`{"oneOf":[{"type":"string"},{"type":"null"}]}`)},
		}}, Fields: []string{"Tools[1].InputSchema"}},
	})
}
