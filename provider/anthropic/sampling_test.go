package anthropic

import (
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/batonrt/baton/contract"
)

// sentOptions sends req and returns the request options of the body.
func sentOptions(t *testing.T, req contract.ModelRequest) map[string]any {
	t.Helper()
	return suite.Sent(t, req, "temperature", "top_p", "stop_sequences", "seed", "tool_choice")
}

func TestSamplingOnTheWire(t *testing.T) {
	temp, seed, serial := 0.2, int64(7), false
	tests := []struct {
		name     string
		sampling contract.Sampling
		noTools  bool
		want     map[string]any
	}{
		{"none set", contract.Sampling{}, false, map[string]any{}},
		{"all set but top_p (see TestModelLimits), a named tool; no seed in this API", contract.Sampling{Temperature: &temp, Stop: []string{"END"}, Seed: &seed, ParallelToolCalls: &serial, ToolChoice: "get_weather"}, false, map[string]any{
			"temperature": 0.2, "stop_sequences": []any{"END"},
			"tool_choice": map[string]any{"type": "tool", "name": "get_weather", "disable_parallel_tool_use": true},
		}},
		{"required", contract.Sampling{ToolChoice: contract.ToolChoiceRequired}, false, map[string]any{"tool_choice": map[string]any{"type": "any"}}},
		{"none", contract.Sampling{ToolChoice: contract.ToolChoiceNone}, false, map[string]any{"tool_choice": map[string]any{"type": "none"}}},
		{"one call per reply", contract.Sampling{ParallelToolCalls: &serial}, false, map[string]any{"tool_choice": map[string]any{"type": "auto", "disable_parallel_tool_use": true}}},
		{"no tools: no tool choice", contract.Sampling{ToolChoice: contract.ToolChoiceRequired}, true, map[string]any{}},
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
