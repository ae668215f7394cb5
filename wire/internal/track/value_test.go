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
