package aisdk

import "github.com/batonrt/baton/contract"

// UI message stream chunk types (uiMessageChunkSchema).
const (
	Start              = "start"
	Finish             = "finish"
	Abort              = "abort"
	Error              = "error"
	MessageMetadata    = "message-metadata"
	StartStep          = "start-step"
	FinishStep         = "finish-step"
	TextStart          = "text-start"
	TextDelta          = "text-delta"
	TextEnd            = "text-end"
	ReasoningStart     = "reasoning-start"
	ReasoningDelta     = "reasoning-delta"
	ReasoningEnd       = "reasoning-end"
	ToolInputStart     = "tool-input-start"
	ToolInputDelta     = "tool-input-delta"
	ToolInputAvailable = "tool-input-available"
	ToolInputError     = "tool-input-error"
	ToolOutputAvail    = "tool-output-available"
	ToolOutputError    = "tool-output-error"
	// ToolOutputDenied puts the part of a call whose approval was denied
	// in output-denied.
	ToolOutputDenied = "tool-output-denied"
	// ToolApprovalRequest puts a call's part in approval-requested; the
	// client answers with addToolApprovalResponse.
	ToolApprovalRequest = "tool-approval-request"
)

// Types of the data parts baton sends. Transient ones (tool started,
// model retry, lag) reach the client's onData but are not kept in the
// message.
const (
	DataApprovalRequested = "data-baton-approval-requested"
	DataApprovalResolved  = "data-baton-approval-resolved"
	DataSteeringApplied   = "data-baton-steering-applied"
	DataFollowUpApplied   = "data-baton-follow-up-applied"
	DataInputDropped      = "data-baton-input-dropped"
	DataCompaction        = "data-baton-compaction"
	DataLoopWarning       = "data-baton-loop-warning"
	DataModelRetry        = "data-baton-model-retry"
	DataToolStarted       = "data-baton-tool-started"
	DataLag               = "data-baton-lag"
	DataSubflow           = "data-baton-subflow"
	DataSubflowEvent      = "data-baton-subflow-event"
	// DataToolOutputTruncated follows the output of a call whose content
	// was cut, by the tool or by the output cap: the tool output chunks
	// have no field to say so. Its id is the call's, so a re-projection
	// replaces it.
	DataToolOutputTruncated = "data-baton-tool-output-truncated"
)

// StreamHeader is the response header that tells an AI SDK client the
// body is a UI message stream, and StreamVersion its value.
const (
	StreamHeader  = "x-vercel-ai-ui-message-stream"
	StreamVersion = "v1"
)

// Chunk is one chunk of the UI message stream. Type says which fields are
// set; the JSON field names are the protocol's.
type Chunk struct {
	Type string `json:"type"`
	// ID names a text, reasoning or data part.
	ID              string `json:"id,omitempty"`
	Delta           string `json:"delta,omitempty"`
	MessageID       string `json:"messageId,omitempty"`
	MessageMetadata any    `json:"messageMetadata,omitempty"`
	ToolCallID      string `json:"toolCallId,omitempty"`
	ApprovalID      string `json:"approvalId,omitempty"`
	ToolName        string `json:"toolName,omitempty"`
	InputTextDelta  string `json:"inputTextDelta,omitempty"`
	// Input is the parsed tool input of tool-input-available, or the raw
	// text of tool-input-error.
	Input any `json:"input,omitempty"`
	// Output is a tool's result; a pointer so an empty result is still
	// sent.
	Output       *string `json:"output,omitempty"`
	ErrorText    string  `json:"errorText,omitempty"`
	FinishReason string  `json:"finishReason,omitempty"`
	Reason       string  `json:"reason,omitempty"`
	Data         any     `json:"data,omitempty"`
	Transient    bool    `json:"transient,omitempty"`
}

// Metadata is the message metadata baton attaches to the assistant
// message of a run: on start the ids, on the end also phase, usage and
// the correction of a message the stream got wrong.
type Metadata struct {
	SessionID string          `json:"sessionId"`
	RunID     string          `json:"runId"`
	Phase     string          `json:"phase,omitempty"`
	Usage     *contract.Usage `json:"usage,omitempty"`
	// Baton, on the end of a run's message, says the stream gave the
	// client other parts than the session stores (see Correction).
	Baton *Correction `json:"baton,omitempty"`
}
