package anthropic

import (
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/batonrt/baton/contract"
)

// TestFinalAssistantTextTrimmed: a history that ends with the
// assistant's text continues it (a prefill), and the API refuses one
// that ends in whitespace ("final assistant content cannot end with
// trailing whitespace"), which a reply a model ended with a line feed
// does. That text goes without its trailing whitespace; the same text in
// an earlier assistant message goes as it is.
func TestFinalAssistantTextTrimmed(t *testing.T) {
	req := basicRequest()
	req.History = req.History.
		Append(contract.Turn{Role: contract.RoleAssistant, Blocks: []contract.Block{contract.TextBlock("Sunny.\n")}}).
		Append(contract.UserText("And tomorrow?")).
		Append(contract.Turn{Role: contract.RoleAssistant, Blocks: []contract.Block{contract.TextBlock("Tomorrow it will be \n\n")}})
	msgs := suite.Sent(t, req, "messages")["messages"].([]any)
	want := []any{
		map[string]any{"role": "assistant", "content": []any{map[string]any{"type": "text", "text": "Sunny.\n"}}},
		map[string]any{"role": "user", "content": []any{map[string]any{"type": "text", "text": "And tomorrow?"}}},
		map[string]any{"role": "assistant", "content": []any{map[string]any{"type": "text", "text": "Tomorrow it will be"}}},
	}
	if diff := cmp.Diff(want, msgs[len(msgs)-3:]); diff != "" {
		t.Errorf("mismatch (-want +got):\n%s", diff)
	}
}
