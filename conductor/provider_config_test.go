package conductor_test

import (
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/batonrt/baton/conductor"
	"github.com/batonrt/baton/contract"
	"github.com/batonrt/baton/turn"
)

// coldRefusing is a provider whose API refuses any temperature set, as
// Anthropic's refuses all but 1 with extended thinking.
type coldRefusing struct{ fakeModel }

func (*coldRefusing) CheckConfig(cfg contract.AgentConfig) []contract.FieldError {
	if cfg.Sampling.Temperature == nil {
		return nil
	}
	return []contract.FieldError{{Field: "Sampling.Temperature", Reason: "is refused"}}
}

// TestCreateAgentAsksTheProviderAboutTheConfig: a config the provider's
// API refuses is bad configuration, returned by CreateAgent, never found
// at the first model call; a delegate's config is asked of the provider
// that will answer it.
func TestCreateAgentAsksTheProviderAboutTheConfig(t *testing.T) {
	cold := 0.2
	warm := contract.AgentConfig{Model: "m"}
	chilled := contract.AgentConfig{Model: "m", Sampling: contract.Sampling{Temperature: &cold}}
	tests := []struct {
		name      string
		cfg       contract.AgentConfig
		delegates map[string]turn.Provider
		want      []string
	}{
		{"accepted", warm, nil, nil},
		{"refused", chilled, nil, []string{"Sampling.Temperature"}},
		{"delegate refused", contract.AgentConfig{Model: "m", Delegates: []contract.Delegate{{Name: "a", Config: chilled}}}, nil,
			[]string{"Delegates[0].Config.Sampling.Temperature"}},
		{"delegate with a provider of its own", contract.AgentConfig{Model: "m", Delegates: []contract.Delegate{{Name: "a", Config: chilled}}},
			map[string]turn.Provider{"a": &fakeModel{}}, nil},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			deps := testDeps(&coldRefusing{}, nil)
			deps.Model.Delegates = tt.delegates
			a, err := conductor.CreateAgent(tt.cfg, deps)
			var got []string
			if err == nil {
				_ = a.Close()
			} else if re, ok := contract.AsRunError(err); ok && re.Kind == contract.KindConfig {
				for _, f := range re.Fields {
					got = append(got, f.Field)
				}
			} else {
				t.Fatalf("error %v, want a config RunError", err)
			}
			if diff := cmp.Diff(tt.want, got); diff != "" {
				t.Errorf("mismatch (-want +got):\n%s", diff)
			}
		})
	}
}
