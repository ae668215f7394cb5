package contract

import (
	"encoding/json"
	"time"
)

// ToolDescriptor is what the model and the runtime know about a tool.
type ToolDescriptor struct {
	Name        string `json:"name"`
	Description string `json:"description,omitempty"`
	// InputSchema is the JSON Schema of the tool's arguments.
	InputSchema json.RawMessage `json:"input_schema,omitempty"`
	// Idempotent tools are run again on resume when they started but left
	// no outcome; the call id is the idempotency key handed to them.
	Idempotent bool `json:"idempotent,omitempty"`
	// NeedsApproval tools wait for an approval before they run.
	NeedsApproval bool `json:"needs_approval,omitempty"`
	// AsksHuman tools are answered by a person, not run: a call moves the
	// run to awaiting_human until the host answers it, with no timeout.
	// Its arguments are {"question": string, "choices": [string]}.
	AsksHuman bool `json:"asks_human,omitempty"`
	// Sequential tools never run beside another tool.
	Sequential bool `json:"sequential,omitempty"`
	// Timeout bounds one call; zero means the dispatcher's default.
	Timeout time.Duration `json:"timeout,omitempty"`
	// Delegate names the delegate this tool hands its task to; empty for
	// ordinary tools.
	Delegate string `json:"delegate,omitempty"`
	// OwnGoroutine tools always run on a goroutine of their own, never on
	// one that would otherwise wait for them: for a tool that may not
	// return when its context ends (a blocking call into C, say), so that
	// it never holds the caller waiting in Submit. It is how the tool is
	// run, not what it is, so it is never encoded.
	OwnGoroutine bool `json:"-"`
}

// ToolOutcome is what running a tool produced.
type ToolOutcome struct {
	Content string `json:"content"`
	IsError bool   `json:"is_error,omitempty"`
	// Truncated says the output cap cut Content.
	Truncated bool `json:"truncated,omitempty"`
}

// Question is what an ask-human call asks a person: free text, with
// choices the model suggests (the answer need not be one of them).
type Question struct {
	Text    string   `json:"text"`
	Choices []string `json:"choices,omitempty"`
}

// CallKeys are the approval keys derived from one call's arguments: what
// the call does (the command names of a shell line, the host of a URL).
// Approving the call for the session allowlists these keys, not the
// tool. Call is the call's position among the reply's tool calls, which
// holds even where the runtime renames a provider's duplicate call ids.
type CallKeys struct {
	Call int      `json:"call"`
	Keys []string `json:"keys"`
}
