package contract

// Role says who spoke a turn.
type Role string

const (
	RoleUser      Role = "user"
	RoleAssistant Role = "assistant"
	// RoleTool turns hold the results of the previous assistant turn's
	// tool calls, in call order.
	RoleTool Role = "tool"
)

// TurnMark flags turns the runtime itself wrote.
type TurnMark string

const (
	MarkNone      TurnMark = ""
	MarkSummary   TurnMark = "summary"    // a compaction summary
	MarkArchive   TurnMark = "archive"    // names the hash range a summary replaced
	MarkReminder  TurnMark = "reminder"   // the loop guard's warning
	MarkSteer     TurnMark = "steer"      // input delivered by steering
	MarkFollowUp  TurnMark = "follow_up"  // input delivered as a follow-up
	MarkRetrieved TurnMark = "retrieved"  // context from the retriever
	MarkRunFailed TurnMark = "run_failed" // the note a failed run leaves in view
	// MarkOutputRetry is the note sending back a final answer that did not
	// match the output schema.
	MarkOutputRetry TurnMark = "output_retry"
)

// Turn is one message of the conversation.
type Turn struct {
	Role   Role     `json:"role"`
	Blocks []Block  `json:"blocks"`
	Mark   TurnMark `json:"mark,omitempty"`
	// Tokens is the estimated token count of this turn, filled in by the
	// reducer when it appends the turn, so that estimating a grown history
	// costs only its new turns.
	Tokens int `json:"tokens,omitempty"`
	// Excluded turns belong to a failed run: the session keeps them, but
	// model calls leave them out (see FailedRunsPolicy).
	Excluded bool `json:"excluded,omitempty"`
	// ClientID is the id the host's client gave this input turn (a chat
	// message's id), kept with the session so that a host can tell a
	// message posted again, after a restart too, from a new one of the
	// same text. Empty for turns the runtime made and input without one.
	ClientID string `json:"client_id,omitempty"`
}

// BlockKind names the kind of a Block.
type BlockKind string

const (
	BlockText       BlockKind = "text"
	BlockThinking   BlockKind = "thinking"
	BlockToolCall   BlockKind = "tool_call"
	BlockToolResult BlockKind = "tool_result"
	BlockImage      BlockKind = "image"
	// BlockRedactedThinking is thinking the provider encrypted; it has no
	// readable text, and must go back to that provider unchanged.
	BlockRedactedThinking BlockKind = "redacted_thinking"
)

// Block is one piece of a turn. Kind says which fields are set: Text for
// text; Text and Signature for thinking; Call; Result; Image; Signature
// alone for redacted thinking, holding the provider's opaque data.
type Block struct {
	Kind      BlockKind   `json:"kind"`
	Text      string      `json:"text,omitempty"`
	Signature string      `json:"signature,omitempty"`
	Call      *ToolCall   `json:"call,omitempty"`
	Result    *ToolResult `json:"result,omitempty"`
	Image     *ImageRef   `json:"image,omitempty"`
}

// ToolCall is the model's request to run a tool. Arguments is the JSON
// text exactly as the model produced it, which may be malformed.
type ToolCall struct {
	ID        string `json:"id"`
	Name      string `json:"name"`
	Arguments string `json:"arguments"`
}

// ToolResult answers one ToolCall.
type ToolResult struct {
	CallID  string `json:"call_id"`
	Name    string `json:"name"`
	Content string `json:"content"`
	IsError bool   `json:"is_error,omitempty"`
}

// ImageRef points at an image by reference; baton never inlines bytes
// into history.
type ImageRef struct {
	URI       string `json:"uri"`
	MediaType string `json:"media_type,omitempty"`
}

// TextBlock returns a text block.
func TextBlock(s string) Block { return Block{Kind: BlockText, Text: s} }

// CallBlock returns a tool-call block.
func CallBlock(c ToolCall) Block { return Block{Kind: BlockToolCall, Call: &c} }

// ResultBlock returns a tool-result block.
func ResultBlock(r ToolResult) Block { return Block{Kind: BlockToolResult, Result: &r} }

// UserText returns a user turn holding one text block.
func UserText(s string) Turn { return Turn{Role: RoleUser, Blocks: []Block{TextBlock(s)}} }

// Text joins the turn's text blocks.
func (t Turn) Text() string {
	var s string
	for _, b := range t.Blocks {
		if b.Kind == BlockText {
			s += b.Text
		}
	}
	return s
}

// Calls returns the turn's tool calls in order.
func (t Turn) Calls() []ToolCall {
	var calls []ToolCall
	for _, b := range t.Blocks {
		if b.Kind == BlockToolCall && b.Call != nil {
			calls = append(calls, *b.Call)
		}
	}
	return calls
}

// Results returns the turn's tool results in order.
func (t Turn) Results() []ToolResult {
	var rs []ToolResult
	for _, b := range t.Blocks {
		if b.Kind == BlockToolResult && b.Result != nil {
			rs = append(rs, *b.Result)
		}
	}
	return rs
}

// Chars counts the bytes of the turn's text, thinking, tool-call names
// and arguments, and tool results: what a character-count compaction
// trigger measures.
func (t Turn) Chars() int {
	n := 0
	for _, b := range t.Blocks {
		n += len(b.Text)
		if b.Call != nil {
			n += len(b.Call.Name) + len(b.Call.Arguments)
		}
		if b.Result != nil {
			n += len(b.Result.Content)
		}
	}
	return n
}
