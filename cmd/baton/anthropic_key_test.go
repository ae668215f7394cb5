package main

import "testing"

// TestAnthropicKeyUnlessAGateway: Anthropic's own API needs
// ANTHROPIC_API_KEY, said before any run starts; a base URL of another
// host (a gateway that adds its own credentials, a local server) may go
// without it, as an OpenAI-compatible server may. A key of blanks, as an
// empty mounted secret gives, is no key.
func TestAnthropicKeyUnlessAGateway(t *testing.T) {
	const want = "--provider anthropic: ANTHROPIC_API_KEY is not set (or give --base-url for a gateway that adds it)"
	tests := []struct {
		name, key, env, baseURL, err string
	}{
		{"no key, no base URL", "", "", "", want},
		{"a key of blanks", " \n", "", "", want},
		{"Anthropic's API by flag", "", "", "https://api.anthropic.com", want},
		{"Anthropic's API by env", "", "https://API.anthropic.com./", "", want},
		{"a gateway by flag", "", "", "http://127.0.0.1:8080", ""},
		{"a gateway by env", "", "https://llm-gateway.example/anthropic", "", ""},
		{"flag over env", "", "https://api.anthropic.com", "http://127.0.0.1:8080", ""},
		{"a key", "sk-ant-test", "", "", ""},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			t.Setenv("ANTHROPIC_API_KEY", tt.key)
			t.Setenv("ANTHROPIC_BASE_URL", tt.env)
			_, _, err := openProvider(providerSpec{name: "anthropic", baseURL: tt.baseURL})
			got := ""
			if err != nil {
				got = err.Error()
			}
			if got != tt.err {
				t.Errorf("openProvider: %q, want %q", got, tt.err)
			}
		})
	}
}
