package agui

import (
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/batonrt/baton/contract"
	wt "github.com/batonrt/baton/wire/internal/wiretest"
)

// clientText folds AG-UI events the way a client does: message id to text.
func clientText(events []Event) map[string]string {
	text := map[string]string{}
	for _, e := range events {
		switch e.Type {
		case TextMessageContent, ReasoningMessageContent:
			text[e.MessageID] += e.Delta
		case ToolCallArgs:
			text[e.ToolCallID] += e.Delta
		}
	}
	return text
}

// A turn whose deltas did not carry all of its text (the stream joined
// late, or the provider's final text differs) sends what is missing, so
// the client ends with the stored turn's text: in place while the part is
// open (the text), in a message of its own once closed (the reasoning,
// closed when the text began).
func TestTurnCompletionSendsWhatTheDeltasMissed(t *testing.T) {
	call := &contract.ToolCall{ID: "c1", Name: "f"}
	final := wt.With(wt.Ev(2, 0, contract.EvTurnCompleted), func(e *contract.RunEvent) {
		e.Turn = wt.AssistantTurn(contract.Block{Kind: contract.BlockThinking, Text: "think hard"}, contract.TextBlock("Hello, world"),
			contract.CallBlock(contract.ToolCall{ID: "c1", Name: "f", Arguments: `{"a":1}`}))
	})
	tests := []struct {
		name   string
		deltas []contract.RunEvent
		want   map[string]string
	}{
		{"prefixes streamed", []contract.RunEvent{
			wt.With(wt.Ev(1, 1, contract.EvThinkingDelta), func(e *contract.RunEvent) { e.Text = "think" }),
			wt.With(wt.Ev(1, 2, contract.EvTextDelta), func(e *contract.RunEvent) { e.Text = "Hel" }),
			wt.With(wt.Ev(1, 3, contract.EvToolCallDelta), func(e *contract.RunEvent) { e.Call = call; e.Text = `{"a"` }),
		}, map[string]string{"r1": "think", "r1-rest": " hard", "m1": "Hello, world", "c1": `{"a":1}`}},
		{"nothing streamed", nil, map[string]string{"r1": "think hard", "m1": "Hello, world", "c1": `{"a":1}`}},
		{"streamed text that differs stays, the stored text follows whole", []contract.RunEvent{
			wt.With(wt.Ev(1, 1, contract.EvTextDelta), func(e *contract.RunEvent) { e.Text = "Howdy" }),
		}, map[string]string{"r1": "think hard", "m1": "Howdy", "m1-final": "Hello, world", "c1": `{"a":1}`}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			p := NewProjector("thread-1")
			var out []Event
			for _, e := range append(append([]contract.RunEvent{wt.Ev(1, 0, contract.EvRunStarted)}, tt.deltas...), final) {
				out = append(out, p.Project(e)...)
			}
			if diff := cmp.Diff(tt.want, clientText(out)); diff != "" {
				t.Errorf("mismatch (-want +got):\n%s", diff)
			}
		})
	}
}
