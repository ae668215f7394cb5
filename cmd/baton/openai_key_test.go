package main

import (
	"testing"
)

// TestOpenAIAPINeedsKey: without OPENAI_API_KEY, a base URL at OpenAI's
// own API, as the README's quick start exports it, fails before the run
// with the missing key, as no base URL does; only another server may go
// without one. The environment's base URL is read as the provider reads
// it, surrounding space trimmed and a blank one none.
func TestOpenAIAPINeedsKey(t *testing.T) {
	const want = "--provider openai: OPENAI_API_KEY is not set, and api.openai.com needs it"
	tests := []struct {
		name    string
		env     string
		baseURL string
		err     string
	}{
		{"env", "https://api.openai.com/v1", "", want},
		{"flag", "", "https://api.openai.com/v1/", want},
		{"regional host", "", "https://eu.api.openai.com/v1", want},
		{"upper case, final dot", "HTTPS://API.OPENAI.COM./v1", "", want},
		{"flag over env", "https://api.openai.com/v1", "http://127.0.0.1:11434/v1", ""},
		{"local server", "http://127.0.0.1:11434/v1", "", ""},
		{"lookalike host", "", "https://api.openai.com.example/v1", ""},
		{"env with a line break", "https://api.openai.com/v1\n", "", want},
		{"blank env", " \n", "", "--provider openai: OPENAI_API_KEY is not set (or give --base-url for a local OpenAI-compatible server)"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			t.Setenv("OPENAI_API_KEY", "")
			t.Setenv("OPENAI_BASE_URL", tt.env)
			_, _, err := openProvider(providerSpec{name: "openai", baseURL: tt.baseURL})
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
