package anthropic

import (
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/batonrt/baton/contract"
)

// TestConversationOpensWithTheUser: the API refuses messages that do not
// open with the user's, so a history whose first turns are blank, or the
// assistant's, is sent after a short user message.
func TestConversationOpensWithTheUser(t *testing.T) {
	opening := map[string]any{"role": "user", "content": []any{map[string]any{"type": "text", "text": openingText}}}
	hello := map[string]any{"role": "assistant", "content": []any{map[string]any{"type": "text", "text": "Hello."}}}
	question := map[string]any{"role": "user", "content": []any{map[string]any{"type": "text", "text": "Rain?"}}}
	greeting := contract.Turn{Role: contract.RoleAssistant, Blocks: []contract.Block{contract.TextBlock("Hello.")}}
	tests := []struct {
		name  string
		turns []contract.Turn
		want  []any
	}{
		{name: "the assistant first", turns: []contract.Turn{greeting, contract.UserText("Rain?")},
			want: []any{opening, hello, question}},
		{name: "a blank user turn first", turns: []contract.Turn{contract.UserText(" \n"), greeting, contract.UserText("Rain?")},
			want: []any{opening, hello, question}},
		{name: "only blank turns", turns: []contract.Turn{{Role: contract.RoleUser}},
			want: []any{opening}},
		{name: "the user first", turns: []contract.Turn{contract.UserText("Rain?")},
			want: []any{question}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			req := basicRequest()
			req.History = contract.HistoryOf(tt.turns...)
			got := suite.Sent(t, req, "messages")["messages"]
			if diff := cmp.Diff(tt.want, got); diff != "" {
				t.Errorf("messages mismatch (-want +got):\n%s", diff)
			}
		})
	}
}
