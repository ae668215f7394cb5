package tracing_test

import (
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/batonrt/baton/conductor/tracing"
	"github.com/batonrt/baton/contract"
	"github.com/batonrt/baton/provider/scripted"
)

// TestRequestModelPerRun: each run's spans name the model its own config
// asks for: a delegate with another model than its parent's is not
// reported as calling the parent's, and an attached agent's model names
// its spans when Options leave the model out.
func TestRequestModelPerRun(t *testing.T) {
	cfg := contract.AgentConfig{Model: "gpt-4o", Delegates: []contract.Delegate{
		{Name: "researcher", Config: contract.AgentConfig{Model: "gpt-4o-mini"}},
	}}
	for _, tc := range []struct {
		name string
		opts tracing.Options
	}{
		{"model given", tracing.Options{Model: "gpt-4o"}},
		{"model from the config", tracing.Options{}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			model := scripted.New(
				scripted.Reply{Calls: []scripted.Call{{ID: "d1", Name: "delegate_researcher", Arguments: `{"task":"find"}`}}},
				scripted.Reply{Text: "found"},
				scripted.Reply{Text: "done"},
			)
			spans := run(t, cfg, model, tc.opts)
			want := []string{
				"- > invoke_agent baton",
				"execute_tool delegate_researcher > invoke_agent researcher",
				"invoke_agent baton > chat gpt-4o",
				"invoke_agent baton > chat gpt-4o",
				"invoke_agent baton > execute_tool delegate_researcher",
				"invoke_agent researcher > chat gpt-4o-mini",
			}
			if diff := cmp.Diff(want, tree(spans)); diff != "" {
				t.Fatalf("span tree mismatch (-want +got):\n%s", diff)
			}
			for name, model := range map[string]string{
				"invoke_agent baton":      "gpt-4o",
				"chat gpt-4o":             "gpt-4o",
				"invoke_agent researcher": "gpt-4o-mini",
				"chat gpt-4o-mini":        "gpt-4o-mini",
			} {
				if got := attrs(find(t, spans, name))["gen_ai.request.model"]; got != model {
					t.Errorf("%s: gen_ai.request.model %q, want %q", name, got, model)
				}
			}
		})
	}
}
