package tracing

import (
	"encoding/json"

	"github.com/batonrt/baton/contract"
)

// part and message are the shapes of gen_ai.input.messages and
// gen_ai.output.messages.
type part struct {
	Type      string `json:"type"`
	Content   string `json:"content,omitempty"`
	ID        string `json:"id,omitempty"`
	Name      string `json:"name,omitempty"`
	Arguments any    `json:"arguments,omitempty"`
}

type message struct {
	Role         string `json:"role"`
	Parts        []part `json:"parts"`
	FinishReason string `json:"finish_reason,omitempty"`
}

func messagesJSON(role, text string) string {
	b, _ := json.Marshal([]message{{Role: role, Parts: []part{{Type: "text", Content: text}}}})
	return string(b)
}

func turnJSON(t contract.Turn, finish string) string {
	m := message{Role: string(t.Role), FinishReason: finish}
	if text := t.Text(); text != "" {
		m.Parts = append(m.Parts, part{Type: "text", Content: text})
	}
	for _, c := range t.Calls() {
		var args any = c.Arguments
		var obj map[string]any
		if json.Unmarshal([]byte(c.Arguments), &obj) == nil {
			args = obj
		}
		m.Parts = append(m.Parts, part{Type: "tool_call", ID: c.ID, Name: c.Name, Arguments: args})
	}
	b, _ := json.Marshal([]message{m})
	return string(b)
}
