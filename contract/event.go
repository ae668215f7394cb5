package contract

// EventKind names an event type.
type EventKind string

const (
	EvRunStarted        EventKind = "run_started"
	EvTextDelta         EventKind = "text_delta"
	EvThinkingDelta     EventKind = "thinking_delta"
	EvToolCallDelta     EventKind = "tool_call_delta"
	EvToolCall          EventKind = "tool_call"
	EvToolStarted       EventKind = "tool_started"
	EvToolResult        EventKind = "tool_result"
	EvApprovalRequested EventKind = "approval_requested"
	EvApprovalResolved  EventKind = "approval_resolved"
	EvQuestionAsked     EventKind = "question_asked"
	EvQuestionAnswered  EventKind = "question_answered"
	EvSteeringApplied   EventKind = "steering_applied"
	EvFollowUpApplied   EventKind = "follow_up_applied"
	EvLoopWarning       EventKind = "loop_warning"
	EvCompaction        EventKind = "compaction"
	EvModelRetry        EventKind = "model_retry"
	// EvInputDropped reports steering or follow-up input the host was
	// told was accepted that the run never delivered because it faulted
	// or was aborted first (revision 7 on): one per input, before the
	// run's end event. Text is the input and Input its kind.
	EvInputDropped EventKind = "input_dropped"
	// EvTurnStarted opens a model call: Round is its number in the run,
	// MaxRounds the run's cap.
	EvTurnStarted EventKind = "turn_started"
	// EvWaiting is a pulse while a model call has streamed nothing for a
	// while, so a UI can show that the run is alive; like deltas it is
	// not committed.
	EvWaiting       EventKind = "waiting"
	EvTurnCompleted EventKind = "turn_completed"
	EvRunSettled    EventKind = "run_settled"
	EvRunFaulted    EventKind = "run_faulted"
	// EvRunDetached says the agent closed while its run waited only for
	// people, or let go of its run in flight (conductor's Agent.Leave):
	// the run has not ended, it stays in flight in the store for Resume
	// or Reopen, but nothing more of it comes from this agent.
	// Like EvWaiting it is not committed.
	EvRunDetached EventKind = "run_detached"
	// EvSubflowStarted, EvSubflowCompleted and EvSubflowFailed mark a
	// delegate call's child run; Call is the delegate call and Text the
	// child's session. The child's own events follow with Subflow ending
	// in the call's id.
	EvSubflowStarted   EventKind = "subflow_started"
	EvSubflowCompleted EventKind = "subflow_completed"
	EvSubflowFailed    EventKind = "subflow_failed"
	// EvSignalRejected reports a signal that did not fit the run's state;
	// it changes nothing, so it carries Seq 0 and is not part of the
	// ordered stream.
	EvSignalRejected EventKind = "signal_rejected"
	// EvLag tells a subscriber how many events it missed (Missed), where
	// they were: only the root run's events are ever missed, never a
	// delegated run's, and Seq is the newest of them, so the committed
	// ones are those above the subscriber's last Seq up to this one.
	EvLag EventKind = "lag"
)

// RunEvent is what subscribers see. Committed events carry a strictly
// increasing Seq from the reducer; streaming deltas published by the turn
// driver carry the Seq of the newest committed event and a Delta counter,
// so (Seq, Delta) orders the whole stream.
type RunEvent struct {
	Seq       uint64 `json:"seq"`
	Delta     uint32 `json:"delta,omitempty"`
	SessionID string `json:"session_id"`
	RunID     string `json:"run_id,omitempty"`
	// Subflow is the path of delegate call ids from the root run to the
	// run that published the event; empty for the root run's events.
	Subflow []string  `json:"subflow,omitempty"`
	At      Timestamp `json:"at"`
	Kind    EventKind `json:"kind"`

	// Text is the delta for text and thinking deltas, the input for
	// steering, the summary for compaction, and the reason where one is
	// given.
	Text string `json:"text,omitempty"`
	// Index is the tool call's position within its turn for
	// tool_call_delta events, and for a compaction the cut its summary
	// replaced: 0 when no summary was made and Text says why.
	Index  int         `json:"index,omitempty"`
	Turn   *Turn       `json:"turn,omitempty"`
	Call   *ToolCall   `json:"call,omitempty"`
	Result *ToolResult `json:"result,omitempty"`
	// Truncated says a tool_result's content was cut, by the tool or by
	// the output cap, so a client can show that the model saw only part
	// of the output. It comes from the recorded outcome; the history's
	// result does not carry it.
	Truncated bool      `json:"truncated,omitempty"`
	Usage     *Usage    `json:"usage,omitempty"`
	Err       *RunError `json:"error,omitempty"`
	// Question is what a question_asked asks; the answer of a
	// question_answered is in Text.
	Question *Question `json:"question,omitempty"`
	// Keys are what an approval_requested would allowlist for the session.
	Keys []string `json:"keys,omitempty"`
	// Approved and Scope describe an approval_resolved.
	Approved bool          `json:"approved,omitempty"`
	Scope    ApprovalScope `json:"scope,omitempty"`
	// Missed counts events a lagging subscriber lost.
	Missed int `json:"missed,omitempty"`
	// Signal names the rejected signal's kind.
	Signal SignalKind `json:"signal,omitempty"`
	// Input is the kind of the input an input_dropped reports.
	Input InputKind `json:"input,omitempty"`
	// ClientIDs are the client ids (Turn.ClientID) of the input turns a
	// run_started, input_dropped, steering_applied or follow_up_applied
	// reports, those that have one: by them a host tells which of its
	// client's messages reached the model and which never will.
	ClientIDs []string `json:"client_ids,omitempty"`
	// Round and MaxRounds describe a turn_started.
	Round     int `json:"round,omitempty"`
	MaxRounds int `json:"max_rounds,omitempty"`
	// Stop is why the model ended a turn_completed's reply, as its
	// ModelReplied records it, so the events of a replayed step carry it
	// too. Run logs written before events carried it lack it.
	Stop StopReason `json:"stop,omitempty"`
	// ResponseModel and ResponseID describe a turn_completed's reply as
	// its provider reported it: the model that answered and the reply's
	// id, for telemetry. The host that made the call adds them; they are
	// not recorded, so the events of a replayed step have neither.
	ResponseModel string `json:"response_model,omitempty"`
	ResponseID    string `json:"response_id,omitempty"`
}
