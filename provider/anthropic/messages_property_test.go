package anthropic

import (
	"encoding/json"
	"slices"
	"strings"
	"testing"

	"pgregory.net/rapid"
)

// TestMessagesTheAPITakes: whatever a host left in the history (steering,
// notes and tool results in any order, blank turns, a first turn that is
// blank or the assistant's), the messages sent are ones the API takes:
// the first is the user's, roles alternate, every tool_use is answered in
// the very next message by tool_result blocks that come before any other
// content, tool_use ids are unique, and no message or text block is empty.
func TestMessagesTheAPITakes(t *testing.T) {
	suite.Histories(t, func(t *rapid.T, sent []byte) {
		var body struct {
			Messages []struct {
				Role    string `json:"role"`
				Content []struct {
					Type      string  `json:"type"`
					Text      *string `json:"text"`
					ID        string  `json:"id"`
					ToolUseID string  `json:"tool_use_id"`
				} `json:"content"`
			} `json:"messages"`
		}
		if err := json.Unmarshal(sent, &body); err != nil {
			t.Fatal(err)
		}
		if len(body.Messages) == 0 || body.Messages[0].Role != "user" {
			t.Fatalf("the first message is not the user's: %s", sent)
		}
		seen := map[string]bool{}
		var uses []string // the tool_use ids of the message before
		for i, m := range body.Messages {
			if i > 0 && m.Role == body.Messages[i-1].Role {
				t.Fatalf("messages %d and %d are both %s", i-1, i, m.Role)
			}
			if len(m.Content) == 0 {
				t.Fatalf("message %d (%s) has no content", i, m.Role)
			}
			var results, ids []string
			for k, b := range m.Content {
				switch b.Type {
				case "text":
					if b.Text == nil || strings.TrimSpace(*b.Text) == "" {
						t.Fatalf("message %d: text block %d is blank", i, k)
					}
				case "tool_result":
					if k != len(results) {
						t.Fatalf("message %d: tool_result at %d after other content", i, k)
					}
					results = append(results, b.ToolUseID)
				case "tool_use":
					if seen[b.ID] {
						t.Fatalf("message %d: tool_use id %q is used again", i, b.ID)
					}
					seen[b.ID] = true
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
