package aisdk

import (
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/batonrt/baton/contract"
)

// A turn whose deltas did not carry all of its text sends what is
// missing before closing the part, so the client ends with the stored
// turn's text.
func TestTurnCompletionSendsWhatTheDeltasMissed(t *testing.T) {
	final := with(ev(2, 0, contract.EvTurnCompleted), func(e *contract.RunEvent) {
		e.Turn = assistantTurn(contract.Block{Kind: contract.BlockThinking, Text: "think hard"}, contract.TextBlock("Hello, world"))
	})
	tests := []struct {
		name   string
		deltas []contract.RunEvent
		want   map[string]string
	}{
		{"prefixes streamed", []contract.RunEvent{
			with(ev(1, 1, contract.EvThinkingDelta), func(e *contract.RunEvent) { e.Text = "think" }),
			with(ev(1, 2, contract.EvTextDelta), func(e *contract.RunEvent) { e.Text = "Hel" }),
		}, map[string]string{"reasoning-1": "think", "reasoning-1-rest": " hard", "text-1": "Hello, world"}},
		{"nothing streamed", nil, map[string]string{"reasoning-1": "think hard", "text-1": "Hello, world"}},
		{"streamed text that differs stays, the stored text follows whole", []contract.RunEvent{
			with(ev(1, 1, contract.EvTextDelta), func(e *contract.RunEvent) { e.Text = "Howdy" }),
		}, map[string]string{"reasoning-1": "think hard", "text-1": "Howdy", "text-1-final": "Hello, world"}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			p := NewProjector("thread-1")
			text := map[string]string{}
			for _, e := range append(append([]contract.RunEvent{ev(1, 0, contract.EvRunStarted)}, tt.deltas...), final) {
				for _, c := range p.Project(e) {
					if c.Type == TextDelta || c.Type == ReasoningDelta {
						text[c.ID] += c.Delta
					}
				}
			}
			if diff := cmp.Diff(tt.want, text); diff != "" {
				t.Errorf("mismatch (-want +got):\n%s", diff)
			}
		})
	}
}
