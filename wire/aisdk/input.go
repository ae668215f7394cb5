package aisdk

import (
	"encoding/json"
	"errors"
	"fmt"

	"github.com/batonrt/baton/contract"
)

// ErrBadInput is wrapped by every error about a malformed request.
var ErrBadInput = errors.New("aisdk: bad chat request")

// Input is what baton reads of a chat request: the chat id (baton's
// session) and the new user turn.
type Input struct {
	ChatID string
	// Turns is the trailing user message as one turn of its text parts:
	// the client sends the whole conversation, and the thread's agent
	// already holds the rest.
	Turns []contract.Turn
}

// chatRequest is the body the transport POSTs; trigger, message id and
// metadata are accepted and ignored.
type chatRequest struct {
	ID       string    `json:"id"`
	Messages []message `json:"messages"`
}

type message struct {
	ID    string `json:"id"`
	Role  string `json:"role"`
	Parts []part `json:"parts"`
}

// part is a message part; baton reads only text parts.
type part struct {
	Type string `json:"type"`
	Text string `json:"text,omitempty"`
}

// DecodeInput parses and checks a chat request body.
func DecodeInput(b []byte) (Input, error) {
	var in chatRequest
	if err := json.Unmarshal(b, &in); err != nil {
		return Input{}, fmt.Errorf("%w: %v", ErrBadInput, err)
	}
	if in.ID == "" {
		return Input{}, fmt.Errorf("%w: id is empty", ErrBadInput)
	}
	if len(in.Messages) == 0 {
		return Input{}, fmt.Errorf("%w: messages is empty", ErrBadInput)
	}
	m := in.Messages[len(in.Messages)-1]
	if m.Role != "user" {
		return Input{}, fmt.Errorf("%w: the last message is %q, not a user message (regenerating a reply is not supported)", ErrBadInput, m.Role)
	}
	t := contract.Turn{Role: contract.RoleUser}
	for _, p := range m.Parts {
		if p.Type == "text" && p.Text != "" {
			t.Blocks = append(t.Blocks, contract.TextBlock(p.Text))
		}
	}
	if len(t.Blocks) == 0 {
		return Input{}, fmt.Errorf("%w: message %q has no text part", ErrBadInput, m.ID)
	}
	return Input{ChatID: in.ID, Turns: []contract.Turn{t}}, nil
}
