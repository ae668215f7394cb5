package wire

import (
	"encoding/json"
	"fmt"

	"github.com/batonrt/baton/contract"
)

// AI SDK UI message stream chunk types (the `ai` npm package, version 6,
// uiMessageChunkSchema).
const (
	UIStart              = "start"
	UIFinish             = "finish"
	UIAbort              = "abort"
	UIError              = "error"
	UIMessageMetadata    = "message-metadata"
	UIStartStep          = "start-step"
	UIFinishStep         = "finish-step"
	UITextStart          = "text-start"
	UITextDelta          = "text-delta"
	UITextEnd            = "text-end"
	UIReasoningStart     = "reasoning-start"
	UIReasoningDelta     = "reasoning-delta"
	UIReasoningEnd       = "reasoning-end"
	UIToolInputStart     = "tool-input-start"
	UIToolInputDelta     = "tool-input-delta"
	UIToolInputAvailable = "tool-input-available"
	UIToolInputError     = "tool-input-error"
	UIToolOutputAvail    = "tool-output-available"
	UIToolOutputError    = "tool-output-error"
)

// Types of the data parts baton sends for what the UI message stream has
// no chunk of its own for. Transient ones (tool started, model retry,
// lag) reach the client's onData but are not kept in the message.
const (
	UIDataApprovalRequested = "data-baton-approval-requested"
	UIDataApprovalResolved  = "data-baton-approval-resolved"
	UIDataSteeringApplied   = "data-baton-steering-applied"
	UIDataFollowUpApplied   = "data-baton-follow-up-applied"
	UIDataCompaction        = "data-baton-compaction"
	UIDataLoopWarning       = "data-baton-loop-warning"
	UIDataModelRetry        = "data-baton-model-retry"
	UIDataToolStarted       = "data-baton-tool-started"
	UIDataLag               = "data-baton-lag"
)

// UIMessageStreamHeader is the response header that tells an AI SDK
// client the body is a UI message stream, with its value.
const (
	UIMessageStreamHeader  = "x-vercel-ai-ui-message-stream"
	UIMessageStreamVersion = "v1"
)

// UIChunk is one chunk of the AI SDK's UI message stream. Type says which
// fields are set; the JSON field names are the protocol's.
type UIChunk struct {
	Type string `json:"type"`
	// ID names a text, reasoning or data part.
	ID              string `json:"id,omitempty"`
	Delta           string `json:"delta,omitempty"`
	MessageID       string `json:"messageId,omitempty"`
	MessageMetadata any    `json:"messageMetadata,omitempty"`
	ToolCallID      string `json:"toolCallId,omitempty"`
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

// UIRunMetadata is the message metadata baton attaches to the assistant
// message of a run: on start the ids, on the end also phase and usage.
type UIRunMetadata struct {
	SessionID string          `json:"sessionId"`
	RunID     string          `json:"runId"`
	Phase     string          `json:"phase,omitempty"`
	Usage     *contract.Usage `json:"usage,omitempty"`
}

// WriteUIChunk writes one UI message stream chunk as JSON data.
func (s *SSEWriter) WriteUIChunk(c UIChunk) error {
	data, err := json.Marshal(c)
	if err != nil {
		return fmt.Errorf("wire: encode %s: %w", c.Type, err)
	}
	return s.WriteEvent("", "", data)
}

// WriteUIDone writes the `data: [DONE]` that ends a UI message stream.
func (s *SSEWriter) WriteUIDone() error {
	return s.WriteEvent("", "", []byte("[DONE]"))
}
