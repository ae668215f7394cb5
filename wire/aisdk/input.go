package aisdk

import (
	"encoding/json"
	"errors"
	"fmt"
	"strings"

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
	// TurnIDs are the client's ids of Turns: a thread takes a message
	// once, so a client that posts it again (a retry) is not taken to say
	// it twice.
	TurnIDs []string
	// Answers are the outputs the client added (addToolOutput) to the
	// tool parts of a trailing assistant message, and its approval
	// responses (addToolApprovalResponse), for the calls the run waits
	// on. With Turns, they are the approval responses of the assistant
	// message before the user's: decisions the client gave before it
	// wrote, which its message, steering a run in flight, carries along
	// (a delegate's child may wait on one at the parent's call).
	Answers []Answer
}

// Answer is a tool part's output: the client's result for one call.
type Answer struct {
	CallID string
	Output string
	// Input is the input of the call the client answered, as its part
	// holds it, or nil: a model may reuse a call id in a later reply, and
	// a client that had not seen that reply still answers the earlier
	// call.
	Input json.RawMessage
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
	Type       string          `json:"type"`
	Text       string          `json:"text,omitempty"`
	ToolCallID string          `json:"toolCallId,omitempty"`
	State      string          `json:"state,omitempty"`
	Input      json.RawMessage `json:"input,omitempty"`
	Output     json.RawMessage `json:"output,omitempty"`
	Approval   *approval       `json:"approval,omitempty"`
}

// approval is a part's approval, as addToolApprovalResponse leaves it.
type approval struct {
	ID       string `json:"id"`
	Approved bool   `json:"approved"`
	Reason   string `json:"reason,omitempty"`
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
	if m.Role == "assistant" {
		in := Input{ChatID: in.ID, Answers: answers(m, false)}
		if len(in.Answers) == 0 {
			return Input{}, fmt.Errorf("%w: the last message is an assistant message with no tool output, not a user message (regenerating a reply is not supported)", ErrBadInput)
		}
		return in, nil
	}
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
	out := Input{ChatID: in.ID, Turns: []contract.Turn{t}, TurnIDs: []string{m.ID}}
	if n := len(in.Messages); n > 1 && in.Messages[n-2].Role == "assistant" {
		out.Answers = answers(in.Messages[n-2], true)
	}
	return out, nil
}

// answers reads the outputs of a trailing assistant message's tool parts
// (a string output is taken as it is, any other JSON as its text) and its
// approval responses (as a decision). The message holds every step of
// the run, and a model may reuse a call id in a later step (call_0 in
// every reply): only the newest part of an id is read, as the call that
// may wait is the newest one, and an earlier call's output is no answer
// to it. With approvalsOnly, outputs are left out: a tool's result
// looks the same as a person's answer.
func answers(m message, approvalsOnly bool) []Answer {
	var out []Answer
	newest := map[string]int{}
	for i, p := range m.Parts {
		if strings.HasPrefix(p.Type, "tool-") && p.ToolCallID != "" {
			newest[p.ToolCallID] = i
		}
	}
	for i, p := range m.Parts {
		if !strings.HasPrefix(p.Type, "tool-") || p.ToolCallID == "" || newest[p.ToolCallID] != i {
			continue
		}
		if p.State == "approval-responded" && p.Approval != nil {
			d, _ := json.Marshal(map[string]any{"approved": p.Approval.Approved, "reason": p.Approval.Reason})
			out = append(out, Answer{CallID: p.ToolCallID, Output: string(d), Input: p.Input})
			continue
		}
		if p.State != "output-available" || approvalsOnly {
			continue
		}
		var s string
		if json.Unmarshal(p.Output, &s) != nil {
			s = string(p.Output)
		}
		out = append(out, Answer{CallID: p.ToolCallID, Output: s, Input: p.Input})
	}
	return out
}
