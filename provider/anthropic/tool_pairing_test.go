package anthropic

import (
	"encoding/json"
	"slices"
	"testing"

	"pgregory.net/rapid"
)

// TestToolResultsComeFirst: whatever order a host left steering, notes
// and tool results in, the driver sends messages the API takes: roles
// alternate, every tool_use is answered in the very next message, and
// there the tool_result blocks come before any text (the API refuses a
// user message with text before its tool_result blocks).
func TestToolResultsComeFirst(t *testing.T) {
	suite.Histories(t, func(t *rapid.T, sent []byte) {
		var body struct {
			Messages []struct {
				Role    string `json:"role"`
				Content []struct {
					Type      string `json:"type"`
					ID        string `json:"id"`
					ToolUseID string `json:"tool_use_id"`
				} `json:"content"`
			} `json:"messages"`
		}
		if err := json.Unmarshal(sent, &body); err != nil {
			t.Fatal(err)
		}
		var uses []string // the tool_use ids of the message before
		for i, m := range body.Messages {
			if i > 0 && m.Role == body.Messages[i-1].Role {
				t.Fatalf("messages %d and %d are both %s", i-1, i, m.Role)
			}
			var results, ids []string
			for k, b := range m.Content {
				switch b.Type {
				case "tool_result":
					if k != len(results) {
						t.Fatalf("message %d: tool_result at %d after other content", i, k)
					}
					results = append(results, b.ToolUseID)
				case "tool_use":
					ids = append(ids, b.ID)
				}
			}
			if m.Role == "user" && !slices.Equal(results, uses) {
				t.Fatalf("message %d answers %q, want %q", i, results, uses)
			}
			uses = ids
		}
		if len(uses) > 0 {
			t.Fatalf("the last message holds calls %q", uses)
		}
	})
}
