package wire

import "github.com/batonrt/baton/contract"

// AG-UI event types (protocol 1.0).
const (
	AGUIRunStarted              = "RUN_STARTED"
	AGUIRunFinished             = "RUN_FINISHED"
	AGUIRunError                = "RUN_ERROR"
	AGUITextMessageStart        = "TEXT_MESSAGE_START"
	AGUITextMessageContent      = "TEXT_MESSAGE_CONTENT"
	AGUITextMessageEnd          = "TEXT_MESSAGE_END"
	AGUIReasoningStart          = "REASONING_START"
	AGUIReasoningMessageStart   = "REASONING_MESSAGE_START"
	AGUIReasoningMessageContent = "REASONING_MESSAGE_CONTENT"
	AGUIReasoningMessageEnd     = "REASONING_MESSAGE_END"
	AGUIReasoningEnd            = "REASONING_END"
	AGUIToolCallStart           = "TOOL_CALL_START"
	AGUIToolCallArgs            = "TOOL_CALL_ARGS"
	AGUIToolCallEnd             = "TOOL_CALL_END"
	AGUIToolCallResult          = "TOOL_CALL_RESULT"
	AGUIStateSnapshot           = "STATE_SNAPSHOT"
	AGUICustom                  = "CUSTOM"
)

// Names of the CUSTOM events baton sends for what AG-UI has no event of
// its own for.
const (
	CustomApprovalRequested = "baton.approval_requested"
	CustomApprovalResolved  = "baton.approval_resolved"
	CustomSteeringApplied   = "baton.steering_applied"
	CustomFollowUpApplied   = "baton.follow_up_applied"
	CustomCompaction        = "baton.compaction"
	CustomLoopWarning       = "baton.loop_warning"
	CustomModelRetry        = "baton.model_retry"
	CustomToolStarted       = "baton.tool_started"
	CustomLag               = "baton.lag"
)

// AGUIEvent is one AG-UI event. Type says which fields are set; the JSON
// field names are the protocol's.
type AGUIEvent struct {
	Type            string `json:"type"`
	Timestamp       int64  `json:"timestamp,omitempty"`
	ThreadID        string `json:"threadId,omitempty"`
	RunID           string `json:"runId,omitempty"`
	MessageID       string `json:"messageId,omitempty"`
	Role            string `json:"role,omitempty"`
	Delta           string `json:"delta,omitempty"`
	ToolCallID      string `json:"toolCallId,omitempty"`
	ToolCallName    string `json:"toolCallName,omitempty"`
	ParentMessageID string `json:"parentMessageId,omitempty"`
	// Content is a tool result's text; a pointer so an empty result is
	// still sent (the protocol requires the field).
	Content  *string `json:"content,omitempty"`
	Message  string  `json:"message,omitempty"`
	Code     string  `json:"code,omitempty"`
	Name     string  `json:"name,omitempty"`
	Value    any     `json:"value,omitempty"`
	Snapshot any     `json:"snapshot,omitempty"`

	// ID is the SSE id of the event: the Seq of the baton event it came
	// from ("7"), or Seq and Delta for a streaming delta ("7.3"). It is set
	// only on the last AG-UI event projected from one baton event, so a
	// client's Last-Event-ID always names a baton event it got in full.
	ID string `json:"-"`
}

// RunState is the STATE_SNAPSHOT baton sends when a run ends.
type RunState struct {
	SessionID string          `json:"sessionId"`
	RunID     string          `json:"runId"`
	Phase     string          `json:"phase"`
	Usage     *contract.Usage `json:"usage,omitempty"`
}
