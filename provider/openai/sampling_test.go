package openai

import (
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/batonrt/baton/contract"
)

// sentOptions sends req and returns the request options of the body.
func sentOptions(t *testing.T, req contract.ModelRequest) map[string]any {
	t.Helper()
	return suite.Sent(t, req, "temperature", "top_p", "stop", "seed", "parallel_tool_calls", "tool_choice")
}

func TestSamplingOnTheWire(t *testing.T) {
	temp, topP, seed, serial := 0.2, 0.9, int64(7), false
	tests := []struct {
		name     string
		sampling contract.Sampling
		noTools  bool
		want     map[string]any
	}{
		{"none set", contract.Sampling{}, false, map[string]any{}},
		{"all set, a named tool", contract.Sampling{Temperature: &temp, TopP: &topP, Stop: []string{"END"}, Seed: &seed, ParallelToolCalls: &serial, ToolChoice: "get_weather"}, false, map[string]any{
			"temperature": 0.2, "top_p": 0.9, "stop": []any{"END"}, "seed": 7.0, "parallel_tool_calls": false,
			"tool_choice": map[string]any{"type": "function", "function": map[string]any{"name": "get_weather"}},
		}},
		{"required", contract.Sampling{ToolChoice: contract.ToolChoiceRequired}, false, map[string]any{"tool_choice": "required"}},
		{"none", contract.Sampling{ToolChoice: contract.ToolChoiceNone}, false, map[string]any{"tool_choice": "none"}},
		{"no tools: no tool options", contract.Sampling{Temperature: &temp, ToolChoice: contract.ToolChoiceAuto, ParallelToolCalls: &serial}, true, map[string]any{"temperature": 0.2}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			req := basicRequest()
			req.Sampling = tt.sampling
			if tt.noTools {
				req.Tools = nil
			}
			if diff := cmp.Diff(tt.want, sentOptions(t, req)); diff != "" {
				t.Errorf("mismatch (-want +got):\n%s", diff)
			}
		})
	}
}
