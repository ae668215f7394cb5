package wire

import (
	"encoding/json"
	"fmt"

	"github.com/batonrt/baton/contract"
)

// UIChatRequest is the body the AI SDK's chat transport POSTs. baton
// reads the chat id (its session) and the messages; the rest is accepted
// and ignored.
type UIChatRequest struct {
	ID        string          `json:"id"`
	Messages  []UIMessage     `json:"messages"`
	Trigger   string          `json:"trigger,omitempty"`
	MessageID string          `json:"messageId,omitempty"`
	Metadata  json.RawMessage `json:"metadata,omitempty"`
}

// UIMessage is one message of a UIChatRequest.
type UIMessage struct {
	ID       string          `json:"id"`
	Role     string          `json:"role"`
	Parts    []UIPart        `json:"parts"`
	Metadata json.RawMessage `json:"metadata,omitempty"`
}

// UIPart is a message part; baton reads only text parts.
type UIPart struct {
	Type string `json:"type"`
	Text string `json:"text,omitempty"`
}

// DecodeUIChatRequest parses and checks an AI SDK chat request body.
func DecodeUIChatRequest(b []byte) (UIChatRequest, error) {
	var in UIChatRequest
	if err := json.Unmarshal(b, &in); err != nil {
		return in, fmt.Errorf("%w: %v", ErrBadInput, err)
	}
	if in.ID == "" {
		return in, fmt.Errorf("%w: id is empty", ErrBadInput)
	}
	return in, nil
}

// NewTurns returns the input: the trailing message, which must be the
// user's, as one user turn of its text parts. The client sends the whole
// conversation, and the thread's agent already holds the rest.
func (in UIChatRequest) NewTurns() ([]contract.Turn, error) {
	if len(in.Messages) == 0 {
		return nil, fmt.Errorf("%w: messages is empty", ErrBadInput)
	}
	m := in.Messages[len(in.Messages)-1]
	if m.Role != "user" {
		return nil, fmt.Errorf("%w: the last message is %q, not a user message (regenerating a reply is not supported)", ErrBadInput, m.Role)
	}
	t := contract.Turn{Role: contract.RoleUser}
	for _, p := range m.Parts {
		if p.Type == "text" && p.Text != "" {
			t.Blocks = append(t.Blocks, contract.TextBlock(p.Text))
		}
	}
	if len(t.Blocks) == 0 {
		return nil, fmt.Errorf("%w: message %q has no text part", ErrBadInput, m.ID)
	}
	return []contract.Turn{t}, nil
}
