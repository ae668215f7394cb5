package main

import (
	"errors"
	"strings"
	"testing"
)

// TestOpenAIRulesFlag: --openai-rules names the rules the OpenAI
// provider follows; an unknown name is a usage error naming the flag,
// and the flag means nothing to another provider.
func TestOpenAIRulesFlag(t *testing.T) {
	t.Setenv("OPENAI_API_KEY", "")
	t.Setenv("OPENAI_BASE_URL", "")
	tests := []struct {
		name string
		spec providerSpec
		err  string
	}{
		{"default", providerSpec{name: "openai", baseURL: "http://localhost:1/v1"}, ""},
		{"openai", providerSpec{name: "openai", baseURL: "http://localhost:1/v1", openAIRules: "openai"}, ""},
		{"compatible", providerSpec{name: "openai", baseURL: "http://localhost:1/v1", openAIRules: "compatible"}, ""},
		{"unknown", providerSpec{name: "openai", baseURL: "http://localhost:1/v1", openAIRules: "azure"}, "--openai-rules"},
		{"other provider", providerSpec{name: "scripted", openAIRules: "openai"}, "--openai-rules"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			_, _, err := openProvider(tt.spec)
			var u *usageError
			switch {
			case tt.err == "" && err != nil:
				t.Fatalf("openProvider: %v", err)
			case tt.err != "" && (!errors.As(err, &u) || !strings.Contains(err.Error(), tt.err)):
				t.Fatalf("openProvider: %v, want a usage error about %s", err, tt.err)
			}
		})
	}
}
