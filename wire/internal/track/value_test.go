package track

import (
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/batonrt/baton/contract"
)

// A delegated run that faults carries its error twice, as the error and
// as the event's text; neither reaches a client with the upstream's
// address or key in it.
func TestSubflowValueRedactsAFaultedChild(t *testing.T) {
	msg := `openai: request failed: Post "https://api.example.com/v1/chat?key=abc123": Authorization: Bearer sk-live-0123456789abcdef`
	ev := contract.RunEvent{
		Kind:      contract.EvRunFaulted,
		SessionID: "child-1",
		Subflow:   []string{"c1"},
		Text:      msg,
		Err:       &contract.RunError{Kind: contract.KindModel, Message: msg},
	}
	got := SubflowValue(ev, "toolName")
	want := map[string]any{
		"subflow":   []string{"c1"},
		"sessionId": "child-1",
		"kind":      "run_faulted",
		"text":      `openai: request failed: Post "[url]": Authorization: Bearer [redacted]`,
		"error":     `baton: model: openai: request failed: Post "[url]": Authorization: Bearer [redacted]`,
	}
	if diff := cmp.Diff(want, got); diff != "" {
		t.Errorf("mismatch (-want +got):\n%s", diff)
	}
}

// A delegated run's compaction reaches a client as its own run's does: a
// fallback's reason, which may quote the provider's error, redacted; a
// summary, the model's own text, as it is.
func TestSubflowValueRedactsACompactionFallback(t *testing.T) {
	reason := `fallback: dropped old tool outputs (turn: summarize: network: Post "https://admin:hunter2@llm.example/v1": x-api-key: sk-live-0123456789abcdef refused)`
	summary := "The user asked about https://example.com/docs?key=public."
	tests := []struct {
		name string
		ev   contract.RunEvent
		want string
	}{
		{"fallback", contract.RunEvent{Kind: contract.EvCompaction, Text: reason}, `fallback: dropped old tool outputs (turn: summarize: network: Post "[url]": x-api-key: [redacted] refused)`},
		{"summary", contract.RunEvent{Kind: contract.EvCompaction, Text: summary, Index: 3}, summary},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got := SubflowValue(tt.ev, "toolName")["text"]
			if diff := cmp.Diff(tt.want, got); diff != "" {
				t.Errorf("text mismatch (-want +got):\n%s", diff)
			}
		})
	}
}
