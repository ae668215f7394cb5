package contract

// SignalKind names a signal type.
type SignalKind string

const (
	SigSubmitted        SignalKind = "submitted"
	SigSteered          SignalKind = "steered"
	SigFollowUpQueued   SignalKind = "follow_up_queued"
	SigModelReplied     SignalKind = "model_replied"
	SigModelFailed      SignalKind = "model_failed"
	SigToolStarted      SignalKind = "tool_started"
	SigToolSettled      SignalKind = "tool_settled"
	SigApprovalResolved SignalKind = "approval_resolved"
	SigHumanAnswered    SignalKind = "human_answered"
	SigCompacted        SignalKind = "compacted"
	SigCompactionFailed SignalKind = "compaction_failed"
	SigAbortRequested   SignalKind = "abort_requested"
	SigResumed          SignalKind = "resumed"
	SigDelegateSettled  SignalKind = "delegate_settled"
	SigAllowanceShared  SignalKind = "allowance_shared"
	SigToolsChanged     SignalKind = "tools_changed"
)

// SignalKinds lists every signal kind in a fixed order.
var SignalKinds = []SignalKind{SigSubmitted, SigSteered, SigFollowUpQueued, SigModelReplied, SigModelFailed, SigToolStarted, SigToolSettled, SigApprovalResolved, SigHumanAnswered, SigCompacted, SigCompactionFailed, SigAbortRequested, SigResumed, SigDelegateSettled, SigAllowanceShared, SigToolsChanged}

// Signal is a fact fed to the reducer. Its time is data, stamped by the
// conductor.
type Signal interface {
	SignalKind() SignalKind
	When() Timestamp
}

// Submitted starts a run on the session.
type Submitted struct {
	RunID string `json:"run_id"`
	Input []Turn `json:"input"`
	// Retrieved is what the retriever returned for this input, recorded
	// here so replay needs no retriever.
	Retrieved []Turn `json:"retrieved,omitempty"`
	// RetrievalError is the retriever's error when it failed and was not
	// marked optional: the run faults with kind retrieval.
	RetrievalError string `json:"retrieval_error,omitempty"`
	// Instructions are the project instruction files found for this run,
	// recorded with their text so replay needs no files.
	Instructions []Instruction `json:"instructions,omitempty"`
	// Tools given to this submit shadow the agent's tools of the same name.
	Tools []ToolDescriptor `json:"tools,omitempty"`
	// Allowed is what the run starts allowed for the session besides
	// what its session allowed already: a delegate's child run takes its
	// parent's allowlist (StartDelegate.Allowed), from revision 9 on.
	Allowed []string `json:"allowed,omitempty"`
	// Config is the agent configuration the run starts under, recorded so
	// a stored session replays under the rules that made it, whoever
	// replays it.
	Config *AgentConfig `json:"config,omitempty"`
	At     Timestamp    `json:"at"`
}

// Steered is input for the run in flight, delivered at the next model-call
// boundary; tool calls not yet started are skipped.
type Steered struct {
	Input []Turn    `json:"input"`
	At    Timestamp `json:"at"`
}

// FollowUpQueued is input that waits until the run would settle, then
// continues it.
type FollowUpQueued struct {
	Input []Turn    `json:"input"`
	At    Timestamp `json:"at"`
}

// StopReason says why the model stopped.
type StopReason string

const (
	StopEndTurn   StopReason = "end_turn"
	StopToolUse   StopReason = "tool_use"
	StopMaxTokens StopReason = "max_tokens"
	StopRefusal   StopReason = "refusal"
)

// ModelReplied carries a whole assistant turn.
type ModelReplied struct {
	Reply Turn       `json:"reply"`
	Usage Usage      `json:"usage,omitzero"`
	Stop  StopReason `json:"stop,omitempty"`
	// Keys are the approval keys the host derived for the reply's calls
	// to tools that need approval, recorded so replay never re-derives
	// them. A call with no entry (or no keys) is keyed by its tool's name.
	Keys []CallKeys `json:"keys,omitempty"`
	// RewrittenBy names the before-model hooks that rewrote the request
	// this reply answers.
	RewrittenBy []string `json:"rewritten_by,omitempty"`
	// OutputError is the host's verdict on a final reply (one without
	// calls) under an output schema: why it does not match, or empty
	// when it does. Recorded so replay never validates again.
	OutputError string    `json:"output_error,omitempty"`
	At          Timestamp `json:"at"`
}

// FailureKind classifies a model failure.
type FailureKind string

const (
	FailRateLimited     FailureKind = "rate_limited"
	FailServer          FailureKind = "server"
	FailNetwork         FailureKind = "network"
	FailTimeout         FailureKind = "timeout"
	FailContextOverflow FailureKind = "context_overflow"
	FailInvalidRequest  FailureKind = "invalid_request"
	FailAuth            FailureKind = "auth"
	FailStream          FailureKind = "stream"
	FailOther           FailureKind = "other"
	// FailBlocked: a before-model hook blocked the call, or failed.
	FailBlocked FailureKind = "blocked"
)

// ModelFailed says the model call failed after the driver's retries.
type ModelFailed struct {
	Failure   FailureKind `json:"failure"`
	Message   string      `json:"message"`
	Retryable bool        `json:"retryable,omitempty"`
	At        Timestamp   `json:"at"`
}

// ToolStarted records that a dispatched call began running; it is durable
// before the tool runs, so resume knows which calls may have had effects.
// Only revision 1 of the rules has it: from revision 2 on, the step that
// emits a RunTool is itself the durable start record.
type ToolStarted struct {
	CallID string    `json:"call_id"`
	At     Timestamp `json:"at"`
}

// ToolSettled carries a call's outcome.
type ToolSettled struct {
	CallID  string      `json:"call_id"`
	Outcome ToolOutcome `json:"outcome"`
	// Arguments are what the call ran with when before-tool hooks
	// rewrote the model's.
	Arguments string `json:"arguments,omitempty"`
	// RewrittenBy names the hooks that rewrote the arguments or the
	// outcome.
	RewrittenBy []string `json:"rewritten_by,omitempty"`
	// Tokens is the estimate of the result block the outcome becomes
	// (compactor.BlockEstimate under the run's model), counted by the
	// worker that ran the tool, off the agent's loop, so neither the loop
	// nor replay tokenizes it. Zero, as in every settle recorded before
	// estimates were carried, has the reducer count it.
	Tokens int       `json:"tokens,omitempty"`
	At     Timestamp `json:"at"`
}

// ApprovalScope says how far an approval reaches.
type ApprovalScope string

const (
	ScopeOnce    ApprovalScope = "once"
	ScopeSession ApprovalScope = "session" // allowlists the tool for the session
)

// ApprovalResolved answers a request_approval.
type ApprovalResolved struct {
	CallID   string        `json:"call_id"`
	Approved bool          `json:"approved"`
	Scope    ApprovalScope `json:"scope,omitempty"`
	Reason   string        `json:"reason,omitempty"`
	At       Timestamp     `json:"at"`
}

// HumanAnswered carries a person's answer to a question the model asked
// with a tool whose descriptor AsksHuman; the answer is the call's result.
type HumanAnswered struct {
	CallID string    `json:"call_id"`
	Answer string    `json:"answer"`
	At     Timestamp `json:"at"`
}

// Compacted carries the summary of history[:Cut]. Usage is what the
// summary call used, as the provider reported it: its tokens count in the
// run's and the session's usage, while Usage.ModelCalls goes on counting
// the run's own model calls. Sessions recorded before it was carried
// count none.
type Compacted struct {
	Summary string    `json:"summary"`
	Cut     int       `json:"cut"`
	Usage   Usage     `json:"usage,omitzero"`
	At      Timestamp `json:"at"`
}

// CompactionFailed says the summary could not be made. Usage is what a
// summary call that came back unusable (empty) used, counted as
// Compacted's is.
type CompactionFailed struct {
	Reason string    `json:"reason"`
	Usage  Usage     `json:"usage,omitzero"`
	At     Timestamp `json:"at"`
}

// AbortMode says when an abort takes effect.
type AbortMode string

const (
	AbortNow        AbortMode = "now"
	AbortAfterReply AbortMode = "after_reply" // let the model finish its reply; run no tools
	AbortAfterTools AbortMode = "after_tools" // let running tools finish; start no more
)

// AbortRequested stops the run.
type AbortRequested struct {
	Mode   AbortMode `json:"mode"`
	Reason string    `json:"reason,omitempty"`
	At     Timestamp `json:"at"`
}

// DelegateSettled carries a delegate call's outcome: the child run in
// Session ended, with Outcome its final answer or its error, and Usage
// what the child run spent, which rolls up into the parent's run.
type DelegateSettled struct {
	CallID  string      `json:"call_id"`
	Session string      `json:"session"`
	Outcome ToolOutcome `json:"outcome"`
	Usage   Usage       `json:"usage,omitzero"`
	// Allowed is the child session's allowlist when its run ended, which
	// the parent keeps from revision 9 on, so what a person allowed in a
	// delegate holds for the parent and its later delegates too.
	Allowed []string  `json:"allowed,omitempty"`
	At      Timestamp `json:"at"`
}

// AllowanceShared carries allowlist entries (tool or tool:key, as
// ApprovalResolved's session scope adds them) that another run of the
// delegation tree allowed while this run is in flight: its parent's, a
// child's, or through them a sibling's. From revision 10 on the run keeps
// them and approves any of its calls waiting on them; earlier revisions
// refuse it.
type AllowanceShared struct {
	Keys []string  `json:"keys"`
	At   Timestamp `json:"at"`
}

// ToolsChanged carries the run's own tools as they are now, replacing
// the ones its submit gave (Submitted.Tools) or an earlier change: a
// tool source such as an MCP server added or dropped tools while the run
// is in flight. From revision 12 on the next model call offers the
// agent's tools with these, and a call the model makes after the change
// to a tool no longer offered gets an unknown-tool result; calls made
// before it run as they were. Earlier revisions refuse it.
type ToolsChanged struct {
	Tools []ToolDescriptor `json:"tools"`
	At    Timestamp        `json:"at"`
}

// Resumed says a stored session was rehydrated by a new process; the run
// in flight, if any, picks up where it stopped.
type Resumed struct {
	// Revision is the rules revision the run goes on under when it is
	// newer than the run's own, for a resume recorded without Config;
	// zero (every resume recorded before revisions) keeps the run's. A
	// resume with Config goes on under Config's revision instead.
	Revision int `json:"revision,omitempty"`
	// Config is the configuration of the agent that resumed the run,
	// which the run goes on under, recorded so the rest of it replays
	// under the same rules (as Submitted.Config does for a run's start).
	// A resume recorded without one keeps the run's config.
	Config *AgentConfig `json:"config,omitempty"`
	At     Timestamp    `json:"at"`
}

func (Submitted) SignalKind() SignalKind        { return SigSubmitted }
func (Steered) SignalKind() SignalKind          { return SigSteered }
func (FollowUpQueued) SignalKind() SignalKind   { return SigFollowUpQueued }
func (ModelReplied) SignalKind() SignalKind     { return SigModelReplied }
func (ModelFailed) SignalKind() SignalKind      { return SigModelFailed }
func (ToolStarted) SignalKind() SignalKind      { return SigToolStarted }
func (ToolSettled) SignalKind() SignalKind      { return SigToolSettled }
func (ApprovalResolved) SignalKind() SignalKind { return SigApprovalResolved }
func (HumanAnswered) SignalKind() SignalKind    { return SigHumanAnswered }
func (Compacted) SignalKind() SignalKind        { return SigCompacted }
func (CompactionFailed) SignalKind() SignalKind { return SigCompactionFailed }
func (AbortRequested) SignalKind() SignalKind   { return SigAbortRequested }
func (Resumed) SignalKind() SignalKind          { return SigResumed }
func (DelegateSettled) SignalKind() SignalKind  { return SigDelegateSettled }
func (AllowanceShared) SignalKind() SignalKind  { return SigAllowanceShared }
func (ToolsChanged) SignalKind() SignalKind     { return SigToolsChanged }

func (s Submitted) When() Timestamp        { return s.At }
func (s Steered) When() Timestamp          { return s.At }
func (s FollowUpQueued) When() Timestamp   { return s.At }
func (s ModelReplied) When() Timestamp     { return s.At }
func (s ModelFailed) When() Timestamp      { return s.At }
func (s ToolStarted) When() Timestamp      { return s.At }
func (s ToolSettled) When() Timestamp      { return s.At }
func (s ApprovalResolved) When() Timestamp { return s.At }
func (s HumanAnswered) When() Timestamp    { return s.At }
func (s Compacted) When() Timestamp        { return s.At }
func (s CompactionFailed) When() Timestamp { return s.At }
func (s AbortRequested) When() Timestamp   { return s.At }
func (s Resumed) When() Timestamp          { return s.At }
func (s DelegateSettled) When() Timestamp  { return s.At }
func (s AllowanceShared) When() Timestamp  { return s.At }
func (s ToolsChanged) When() Timestamp     { return s.At }
