package openai

import (
	"encoding/json"
	"slices"
	"testing"

	"pgregory.net/rapid"
)

// TestToolMessagesFollowTheirCalls: whatever order a host left steering,
// notes and tool results in, the driver sends messages the API takes:
// an assistant message's tool_calls are answered by tool messages right
// after it, one per call in call order, and no tool message stands
// anywhere else.
func TestToolMessagesFollowTheirCalls(t *testing.T) {
	suite.Histories(t, func(t *rapid.T, sent []byte) {
		var body struct {
			Messages []struct {
				Role       string `json:"role"`
				ToolCallID string `json:"tool_call_id"`
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
