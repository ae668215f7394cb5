package wire

import (
	"encoding/json"
	"errors"
	"fmt"

	"github.com/batonrt/baton/contract"
)

// RunAgentInput is AG-UI's request body. baton reads the thread (its
// session), the run id, the messages and the tools; the rest is accepted
// and ignored.
type RunAgentInput struct {
	ThreadID       string            `json:"threadId"`
	RunID          string            `json:"runId"`
	Messages       []AGUIMessage     `json:"messages"`
	Tools          []AGUITool        `json:"tools,omitempty"`
	State          json.RawMessage   `json:"state,omitempty"`
	Context        []json.RawMessage `json:"context,omitempty"`
	ForwardedProps json.RawMessage   `json:"forwardedProps,omitempty"`
}

// AGUIMessage is one message of RunAgentInput.
type AGUIMessage struct {
	ID         string          `json:"id"`
	Role       string          `json:"role"`
	Content    json.RawMessage `json:"content,omitempty"`
	ToolCallID string          `json:"toolCallId,omitempty"`
}

// AGUITool is a tool the client offers.
type AGUITool struct {
	Name        string          `json:"name"`
	Description string          `json:"description"`
	Parameters  json.RawMessage `json:"parameters,omitempty"`
}

// ErrBadInput is wrapped by every error about a malformed request.
var ErrBadInput = errors.New("wire: bad run input")

// DecodeRunAgentInput parses and checks a request body.
func DecodeRunAgentInput(b []byte) (RunAgentInput, error) {
	var in RunAgentInput
	if err := json.Unmarshal(b, &in); err != nil {
		return in, fmt.Errorf("%w: %v", ErrBadInput, err)
	}
	if in.ThreadID == "" {
		return in, fmt.Errorf("%w: threadId is empty", ErrBadInput)
	}
	for i, t := range in.Tools {
		if !contract.ValidToolName(t.Name) {
			return in, fmt.Errorf("%w: tools[%d]: name %q must match [A-Za-z0-9_-]{1,64}", ErrBadInput, i, t.Name)
		}
	}
	return in, nil
}

// NewTurns returns the input's trailing user messages as user turns: the
// client sends the whole conversation, and the thread's agent already
// holds everything up to its last reply.
func (in RunAgentInput) NewTurns() ([]contract.Turn, error) {
	start := len(in.Messages)
	for start > 0 && in.Messages[start-1].Role == "user" {
		start--
	}
	var turns []contract.Turn
	for _, m := range in.Messages[start:] {
		text, err := messageText(m.Content)
		if err != nil {
			return nil, fmt.Errorf("%w: message %q: %v", ErrBadInput, m.ID, err)
		}
		turns = append(turns, contract.UserText(text))
	}
	if len(turns) == 0 {
		return nil, fmt.Errorf("%w: no user message after the last reply", ErrBadInput)
	}
	return turns, nil
}

// messageText reads a content that is a string or an array of parts, of
// which it keeps the text parts.
func messageText(raw json.RawMessage) (string, error) {
	if len(raw) == 0 {
		return "", errors.New("content is missing")
	}
	var s string
	if err := json.Unmarshal(raw, &s); err == nil {
		return s, nil
	}
	var parts []struct {
		Type string `json:"type"`
		Text string `json:"text"`
	}
	if err := json.Unmarshal(raw, &parts); err != nil {
		return "", errors.New("content must be a string or an array of parts")
	}
	for _, p := range parts {
		if p.Type == "text" {
			s += p.Text
		}
	}
	return s, nil
}
