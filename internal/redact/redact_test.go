package redact

import (
	"testing"

	"github.com/google/go-cmp/cmp"
)

func TestError(t *testing.T) {
	tests := []struct{ in, want string }{
		{"model: rate_limited (status 429)", "model: rate_limited (status 429)"},
		{`openai: request failed: Post "https://api.example.com/v1/chat/completions?key=abc123": dial tcp: connection refused`,
			`openai: request failed: Post "[url]": dial tcp: connection refused`},
		{"auth failed for Authorization: Bearer sk-live-0123456789abcdef", "auth failed for Authorization: Bearer [redacted]"},
		{"invalid x-api-key sk-ant-api03-AAAAAAAAAAAA", "invalid x-api-key [redacted]"},
		{"api_key=hunter2, retry later", "api_key=[redacted], retry later"},
		{"bad key: AIzaSyA1234567890abcdefghijkl", "bad key: [redacted]"},
	}
	for _, tt := range tests {
		if diff := cmp.Diff(tt.want, Error(tt.in)); diff != "" {
			t.Errorf("Error(%q) mismatch (-want +got):\n%s", tt.in, diff)
		}
	}
}
