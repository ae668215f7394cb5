package tracing_test

import (
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/batonrt/baton/conductor/tracing"
	"github.com/batonrt/baton/contract"
	"github.com/batonrt/baton/provider/scripted"
)

// TestRequestParameters: a chat span says what its run's config asks of
// the model (gen_ai.request.max_tokens, temperature, top_p, seed and stop
// sequences), a delegate's call what the delegate's own config asks,
// with the defaults the agent applies.
func TestRequestParameters(t *testing.T) {
	temp, topP, seed := 0.2, 0.9, int64(7)
	cfg := contract.AgentConfig{
		Model: "m", MaxOutputTokens: 1000,
		Sampling:  contract.Sampling{Temperature: &temp, TopP: &topP, Seed: &seed, Stop: []string{"END"}},
		Delegates: []contract.Delegate{{Name: "helper", Config: contract.AgentConfig{Model: "small"}}},
	}
	model := scripted.New(
		scripted.Reply{Calls: []scripted.Call{{ID: "d1", Name: "delegate_helper", Arguments: `{"task":"help"}`}}},
		scripted.Reply{Text: "helped"},
		scripted.Reply{Text: "done"},
	)
	spans := run(t, cfg, model, tracing.Options{})
	keys := []string{"gen_ai.request.max_tokens", "gen_ai.request.temperature", "gen_ai.request.top_p", "gen_ai.request.seed", "gen_ai.request.stop_sequences"}
	got := map[string][]string{}
	for _, name := range []string{"chat m", "chat small"} {
		a := attrs(find(t, spans, name))
		for _, k := range keys {
			got[name] = append(got[name], a[k])
		}
	}
	want := map[string][]string{
		"chat m":     {"1000", "0.2", "0.9", "7", `["END"]`},
		"chat small": {"4096", "", "", "", ""},
	}
	if diff := cmp.Diff(want, got); diff != "" {
		t.Errorf("request parameters (-want +got) of %v:\n%s", keys, diff)
	}
}
