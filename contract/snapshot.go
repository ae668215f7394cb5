package contract

// CallState is where one tool call of the current batch stands.
type CallState string

const (
	CallQueued           CallState = "queued"            // waiting its turn to run
	CallAwaitingApproval CallState = "awaiting_approval" // request_approval emitted
	CallAwaitingHuman    CallState = "awaiting_human"    // ask_human emitted
	CallDispatched       CallState = "dispatched"        // run_tool emitted
	CallStarted          CallState = "started"           // the tool began running
	CallDone             CallState = "done"              // Result is set
)

// PendingCall is one tool call of the assistant turn being answered.
type PendingCall struct {
	Call   ToolCall       `json:"call"`
	Tool   ToolDescriptor `json:"tool,omitzero"`
	State  CallState      `json:"state"`
	Result *ToolResult    `json:"result,omitempty"`
	// Subflow is the child session of a delegate call once it is started.
	Subflow string `json:"subflow,omitempty"`
	// Keys are what approving the call for the session allowlists, as
	// tool:key entries, when its reply recorded keys for it (see
	// ModelReplied.Keys); with none the tool's name is the key.
	Keys []string `json:"keys,omitempty"`
	// Question is what the call asks a person, set while it awaits an
	// answer.
	Question *Question `json:"question,omitempty"`
	// Tokens is the estimate of the result block its settle carried;
	// zero when the reducer counts it.
	Tokens int `json:"tokens,omitempty"`
}

// InputKind says how input that arrived mid-run is delivered.
type InputKind string

const (
	InputSteer    InputKind = "steer"
	InputFollowUp InputKind = "follow_up"
)

// QueuedInput is host input waiting for its delivery point.
type QueuedInput struct {
	Kind  InputKind `json:"kind"`
	Turns []Turn    `json:"turns"`
	At    Timestamp `json:"at"`
}

// RunSnapshot is the whole state of a session and its current run: an
// immutable value. Step returns a new snapshot and never changes the one
// it was given; slices here are never written in place.
type RunSnapshot struct {
	SessionID string  `json:"session_id"`
	RunID     string  `json:"run_id,omitempty"`
	Phase     Phase   `json:"phase"`
	History   History `json:"history"`
	// Pending are the calls of the newest assistant turn, in call order,
	// while they are being answered.
	Pending []PendingCall `json:"pending,omitempty"`
	// Queued is steering and follow-up input not yet delivered.
	Queued []QueuedInput `json:"queued,omitempty"`
	// Turns counts invoke_model effects in this run.
	Turns        int       `json:"turns,omitempty"`
	RunUsage     Usage     `json:"run_usage,omitzero"`
	SessionUsage Usage     `json:"session_usage,omitzero"`
	Err          *RunError `json:"error,omitempty"`
	// Seq is the sequence number of the newest published event.
	Seq uint64 `json:"seq"`
	// Steps counts committed signals over the session's life.
	Steps uint64 `json:"steps"`
	// Abort is a requested abort waiting for its moment.
	Abort       AbortMode `json:"abort,omitempty"`
	AbortReason string    `json:"abort_reason,omitempty"`
	// RunTools were given to this run's submit and shadow the agent's.
	RunTools []ToolDescriptor `json:"run_tools,omitempty"`
	// Allowed holds what was approved for the whole session, sorted: a
	// tool name alone for calls that derive no approval keys, and
	// tool:key for each key of the calls that do (shell:ls, http:example.com).
	Allowed []string `json:"allowed,omitempty"`
	// Recent holds the loop guard's newest call signatures.
	Recent []string `json:"recent,omitempty"`
	// Warned says the loop guard's reminder was given for the current
	// repetition.
	Warned bool `json:"warned,omitempty"`
	// OutputRetries counts the current run's final answers sent back for
	// not matching the output schema (revision 14 on; earlier revisions
	// count the notes that sent them back in the run's history). It is
	// 32 bits beside Warned so that it takes the room Warned's alignment
	// leaves, and a snapshot, held by value in the frames under a run's
	// every step, is no larger than before it.
	OutputRetries int32 `json:"output_retries,omitempty"`
	// CompactedAt is the history length right after the last compaction
	// attempt; no new attempt happens until history grows past it.
	CompactedAt  int       `json:"compacted_at,omitempty"`
	RunStartedAt Timestamp `json:"run_started_at,omitempty"`
	// RunFrom is the history index of the current run's first turn.
	RunFrom int `json:"run_from,omitempty"`
	// CondensedInput are the current run's input turns that carry a
	// client's id (Turn.ClientID) and that compaction condensed into a
	// summary, as text: the history no longer holds them, and a host
	// still needs to know which of its client's messages the run took.
	CondensedInput []Turn `json:"condensed_input,omitempty"`
	// Excluded counts history turns marked Excluded.
	Excluded int `json:"excluded,omitempty"`
	// Progress is the no_progress guard's state for the current run.
	Progress Progress `json:"progress,omitzero"`
	// Instructions are the project instructions of the current run.
	Instructions []Instruction `json:"instructions,omitempty"`
	// Revision is the rules revision the current run follows, set by its
	// submit from AgentConfig.Revision (zero, as every snapshot before
	// revisions, is revision 0) and raised by a resume that asks for a
	// newer one.
	Revision int `json:"revision,omitempty"`
}

// Progress is what the no_progress guard remembers within a run.
type Progress struct {
	// Seen holds a hash of each distinct tool result of the run (its
	// JSON is their sorted list, as when it was a slice).
	Seen SortedSet `json:"seen,omitzero"`
	// Repeats counts the newest tool results in a row that repeated an
	// earlier one.
	Repeats int `json:"repeats,omitempty"`
	// StaleRounds counts the newest rounds of tool calls in a row that
	// brought no new result.
	StaleRounds int `json:"stale_rounds,omitempty"`
	// Warned says the reminder was given for the current stall.
	Warned bool `json:"warned,omitempty"`
}

// PendingApprovals returns the calls waiting for an approval.
func (s RunSnapshot) PendingApprovals() []ToolCall {
	var out []ToolCall
	for _, p := range s.Pending {
		if p.State == CallAwaitingApproval {
			out = append(out, p.Call)
		}
	}
	return out
}

// PendingQuestions returns the calls waiting for a person's answer.
func (s RunSnapshot) PendingQuestions() []PendingCall {
	var out []PendingCall
	for _, p := range s.Pending {
		if p.State == CallAwaitingHuman {
			out = append(out, p)
		}
	}
	return out
}
