package agui

import (
	"encoding/json"
	"errors"
	"fmt"

	"github.com/batonrt/baton/contract"
)

// ErrBadInput is wrapped by every error about a malformed request.
var ErrBadInput = errors.New("agui: bad run input")

// Input is what baton reads of a RunAgentInput: the thread (baton's
// session), the client's run id and the new user turns.
type Input struct {
	ThreadID string
	RunID    string
	// Turns are the trailing user messages: the client sends the whole
	// conversation, and the thread's agent already holds everything up
	// to its last reply. Empty when the request only resumes a stream or
	// answers.
	Turns []contract.Turn
	// TurnIDs are the client's ids of Turns, in order: a thread takes a
	// message once, so a client that posts the same messages again (a
	// retry) is not taken to say them twice.
	TurnIDs []string
	// Answers are the trailing tool messages: the client's results for
	// tool calls the run waits on (a question to a person, an approval).
	// With Turns, they are the tool messages right before those: answers
	// the client gave along with its message, which steers a run in
	// flight (a delegate's child may wait on one at the parent's call).
	Answers []Answer
}

// Answer is a tool message: the client's result for one tool call.
type Answer struct {
	CallID  string
	Content string
}

// runAgentInput is AG-UI's request body; the fields baton does not use
// (state, context, forwarded props) are accepted and ignored.
type runAgentInput struct {
	ThreadID string    `json:"threadId"`
	RunID    string    `json:"runId"`
	Messages []message `json:"messages"`
	Tools    []tool    `json:"tools,omitempty"`
}

type message struct {
	ID         string          `json:"id"`
	Role       string          `json:"role"`
	Content    json.RawMessage `json:"content,omitempty"`
	ToolCallID string          `json:"toolCallId,omitempty"`
}

type tool struct {
	Name string `json:"name"`
}

// DecodeInput parses and checks a RunAgentInput body. With turns unset
// it only checks the envelope (a request resuming a stream needs no new
// message).
func DecodeInput(b []byte, turns bool) (Input, error) {
	var in runAgentInput
	if err := json.Unmarshal(b, &in); err != nil {
		return Input{}, fmt.Errorf("%w: %v", ErrBadInput, err)
	}
	if in.ThreadID == "" {
		return Input{}, fmt.Errorf("%w: threadId is empty", ErrBadInput)
	}
	for i, t := range in.Tools {
		if !contract.ValidToolName(t.Name) {
			return Input{}, fmt.Errorf("%w: tools[%d]: name %q must match [A-Za-z0-9_-]{1,64}", ErrBadInput, i, t.Name)
		}
	}
	out := Input{ThreadID: in.ThreadID, RunID: in.RunID}
	if !turns {
		return out, nil
	}
	var err error
	if n := len(in.Messages); n > 0 && in.Messages[n-1].Role == "tool" {
		out.Answers, err = answers(in.Messages)
		return out, err
	}
	out.Turns, out.TurnIDs, err = newTurns(in.Messages)
	if err == nil {
		out.Answers, err = answers(in.Messages[:len(in.Messages)-len(out.Turns)])
	}
	return out, err
}

// answers reads the trailing tool messages.
func answers(messages []message) ([]Answer, error) {
	start := len(messages)
	for start > 0 && messages[start-1].Role == "tool" {
		start--
	}
	var out []Answer
	for _, m := range messages[start:] {
		if m.ToolCallID == "" {
			return nil, fmt.Errorf("%w: tool message %q has no toolCallId", ErrBadInput, m.ID)
		}
		text, err := messageText(m.Content)
		if err != nil {
			return nil, fmt.Errorf("%w: message %q: %v", ErrBadInput, m.ID, err)
		}
		out = append(out, Answer{CallID: m.ToolCallID, Content: text})
	}
	return out, nil
}

func newTurns(messages []message) ([]contract.Turn, []string, error) {
	start := len(messages)
	for start > 0 && messages[start-1].Role == "user" {
		start--
	}
	var turns []contract.Turn
	var ids []string
	for _, m := range messages[start:] {
		text, err := messageText(m.Content)
		if err != nil {
			return nil, nil, fmt.Errorf("%w: message %q: %v", ErrBadInput, m.ID, err)
		}
		if text == "" {
			// Its content is null or parts baton does not read (an image):
			// an empty user turn would reach the model, which may refuse
			// it, and stay in the session.
			return nil, nil, fmt.Errorf("%w: message %q has no text", ErrBadInput, m.ID)
		}
		turns = append(turns, contract.UserText(text))
		ids = append(ids, m.ID)
	}
	if len(turns) == 0 {
		return nil, nil, fmt.Errorf("%w: no user message after the last reply", ErrBadInput)
	}
	return turns, ids, nil
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
