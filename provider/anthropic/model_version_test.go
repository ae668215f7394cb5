package anthropic

import (
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/batonrt/baton/contract"
	"github.com/batonrt/baton/turn/transcripttest"
)

// TestParseClaudeVersion: a model's version is read whatever follows it:
// a date after a hyphen (the API's ids), after an "@" (Vertex AI's ids,
// "claude-opus-4-5@20251101"), or a router's dotted version
// ("claude-opus-4.5"). Reading "4-5@..." as version 4 would give Opus 4.5
// the output cap of Opus 4 and refuse a length it takes.
func TestParseClaudeVersion(t *testing.T) {
	type parsed struct {
		C  claude
		OK bool
	}
	tests := []struct {
		model string
		want  parsed
	}{
		{"claude-sonnet-4-20250514", parsed{claude{"sonnet", 4, 0}, true}},
		{"claude-opus-4-1-20250805", parsed{claude{"opus", 4, 1}, true}},
		{"claude-haiku-4-5", parsed{claude{"haiku", 4, 5}, true}},
		{"claude-opus-4-5@20251101", parsed{claude{"opus", 4, 5}, true}},
		{"claude-sonnet-4-5@20250929", parsed{claude{"sonnet", 4, 5}, true}},
		{"claude-opus-4@20250514", parsed{claude{"opus", 4, 0}, true}},
		{"anthropic/claude-opus-4.5", parsed{claude{"opus", 4, 5}, true}},
		{"claude-3-7-sonnet-latest", parsed{}},
	}
	for _, tt := range tests {
		t.Run(tt.model, func(t *testing.T) {
			c, ok := parseClaude(tt.model)
			if diff := cmp.Diff(tt.want, parsed{c, ok}, cmp.AllowUnexported(claude{})); diff != "" {
				t.Errorf("mismatch (-want +got):\n%s", diff)
			}
		})
	}
	transcripttest.CheckConfig(t, New(), []transcripttest.ConfigCase{
		{Name: "opus 4.5 on Vertex, a long answer", Config: contract.AgentConfig{Model: "claude-opus-4-5@20251101", MaxOutputTokens: 48000}},
	})
}
