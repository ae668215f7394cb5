package agui

import "github.com/batonrt/baton/contract"

// AG-UI event types.
const (
	RunStarted              = "RUN_STARTED"
	RunFinished             = "RUN_FINISHED"
	RunError                = "RUN_ERROR"
	TextMessageStart        = "TEXT_MESSAGE_START"
	TextMessageContent      = "TEXT_MESSAGE_CONTENT"
	TextMessageEnd          = "TEXT_MESSAGE_END"
	ReasoningStart          = "REASONING_START"
	ReasoningMessageStart   = "REASONING_MESSAGE_START"
	ReasoningMessageContent = "REASONING_MESSAGE_CONTENT"
	ReasoningMessageEnd     = "REASONING_MESSAGE_END"
	ReasoningEnd            = "REASONING_END"
	ToolCallStart           = "TOOL_CALL_START"
	ToolCallArgs            = "TOOL_CALL_ARGS"
	ToolCallEnd             = "TOOL_CALL_END"
	ToolCallResult          = "TOOL_CALL_RESULT"
	StateSnapshot           = "STATE_SNAPSHOT"
	MessagesSnapshot        = "MESSAGES_SNAPSHOT"
	StepStarted             = "STEP_STARTED"
	StepFinished            = "STEP_FINISHED"
	Custom                  = "CUSTOM"
)

// Names of the CUSTOM events baton sends.
const (
	CustomApprovalRequested = "baton.approval_requested"
	CustomApprovalResolved  = "baton.approval_resolved"
	CustomSteeringApplied   = "baton.steering_applied"
	CustomFollowUpApplied   = "baton.follow_up_applied"
	CustomInputDropped      = "baton.input_dropped"
	CustomCompaction        = "baton.compaction"
	CustomLoopWarning       = "baton.loop_warning"
	CustomModelRetry        = "baton.model_retry"
	CustomToolStarted       = "baton.tool_started"
	CustomLag               = "baton.lag"
	CustomSubflow           = "baton.subflow"
	// CustomToolResultTruncated follows a TOOL_CALL_RESULT whose
	// content was cut, by the tool or by the output cap: the result's
	// content is a string with no place to say so.
	CustomToolResultTruncated = "baton.tool_result_truncated"
)

// Event is one AG-UI event. Type says which fields are set; the JSON
// field names are the protocol's.
type Event struct {
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
	StepName string  `json:"stepName,omitempty"`
	// Messages are a MESSAGES_SNAPSHOT's: the client's message list,
	// which it replaces (an empty list, sent, empties it).
	Messages []Message `json:"messages,omitzero"`

	// ID is the event's SSE id: the Seq of the baton event it came from
	// ("7"), or Seq and Delta for a streaming delta ("7.3"); for a
	// delegated run's event, the id of the run's own event before it and
	// how many delegated events came since ("7+2"). It is set only on
	// the last event projected from one baton event, so a client's
	// Last-Event-ID always names a baton event it got in full.
	ID string `json:"-"`
}

// runState is the STATE_SNAPSHOT baton sends when a run ends.
type runState struct {
	SessionID string          `json:"sessionId"`
	RunID     string          `json:"runId"`
	Phase     string          `json:"phase"`
	Usage     *contract.Usage `json:"usage,omitempty"`
}
