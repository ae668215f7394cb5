package openai

import (
	"encoding/json"
	"slices"
	"strings"
	"testing"

	"pgregory.net/rapid"
)

// TestMessagesTheAPITakes: whatever a host left in the history (steering,
// notes and tool results in any order, blank turns and results, a first
// turn that is blank or the assistant's), the messages sent are ones the
// API and the servers that speak it take: an assistant message's
// tool_calls are answered by tool messages right after it, one per call
// in call order, and no tool message stands anywhere else; an assistant
// message has content or tool_calls; no content is blank, which servers
// such as LM Studio's refuse, and no content list is empty.
func TestMessagesTheAPITakes(t *testing.T) {
	suite.Histories(t, func(t *rapid.T, sent []byte) {
		var body struct {
			Messages []struct {
				Role       string          `json:"role"`
				Content    json.RawMessage `json:"content"`
				ToolCallID string          `json:"tool_call_id"`
				ToolCalls  []struct {
					ID string `json:"id"`
				} `json:"tool_calls"`
			} `json:"messages"`
		}
		if err := json.Unmarshal(sent, &body); err != nil {
			t.Fatal(err)
		}
		var calls, answered []string // the calls being answered, and by what so far
		for i, m := range body.Messages {
			if len(m.Content) == 0 && (m.Role != "assistant" || len(m.ToolCalls) == 0) {
				t.Fatalf("message %d (%s) has no content: %s", i, m.Role, sent)
			}
			if blank, why := blankContent(m.Content); blank {
				t.Fatalf("message %d (%s): %s: %s", i, m.Role, why, m.Content)
			}
			if m.Role == "tool" {
				answered = append(answered, m.ToolCallID)
				if len(answered) > len(calls) || answered[len(answered)-1] != calls[len(answered)-1] {
					t.Fatalf("message %d answers %q, want the calls %q in order", i, answered, calls)
				}
				continue
			}
			if !slices.Equal(answered, calls) {
				t.Fatalf("message %d (%s) comes after the calls %q answered only by %q", i, m.Role, calls, answered)
			}
			calls, answered = nil, nil
			for _, c := range m.ToolCalls {
				calls = append(calls, c.ID)
			}
		}
		if len(calls) > 0 && !slices.Equal(answered, calls) {
			t.Fatalf("the last calls %q are answered only by %q", calls, answered)
		}
	})
}

// blankContent reports whether a message's content, a string or a list
// of parts, says nothing, and how.
func blankContent(raw json.RawMessage) (bool, string) {
	if len(raw) == 0 {
		return false, ""
	}
	var text string
	if json.Unmarshal(raw, &text) == nil {
		return strings.TrimSpace(text) == "", "blank content"
	}
	var parts []struct {
		Type string  `json:"type"`
		Text *string `json:"text"`
	}
	if err := json.Unmarshal(raw, &parts); err != nil {
		return true, "content is neither text nor parts"
	}
	if len(parts) == 0 {
		return true, "empty content list"
	}
	for _, p := range parts {
		if p.Type == "text" && (p.Text == nil || strings.TrimSpace(*p.Text) == "") {
			return true, "blank text part"
		}
	}
	return false, ""
}
