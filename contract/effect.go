package contract

// EffectKind names an effect type.
type EffectKind string

const (
	EffInvokeModel     EffectKind = "invoke_model"
	EffRunTool         EffectKind = "run_tool"
	EffRequestApproval EffectKind = "request_approval"
	EffAskHuman        EffectKind = "ask_human"
	EffCompact         EffectKind = "compact"
	EffCancelInFlight  EffectKind = "cancel_in_flight"
	EffPersist         EffectKind = "persist"
	EffPublish         EffectKind = "publish"
	EffStartDelegate   EffectKind = "start_delegate"
)

// Effect is a command a step hands to the conductor. A step's effects are
// performed in order: its Persist is durable before any Publish after it
// is delivered. Effects are pointers (*Persist, *Publish, *RunTool, ...)
// into memory the step allocated once for all of them, rather than
// values boxed one by one.
type Effect interface{ EffectKind() EffectKind }

// ModelRequest is what the model is asked.
type ModelRequest struct {
	Model  string `json:"model"`
	System string `json:"system,omitempty"`
	// History is the conversation as the model should see it; it shares
	// structure with the snapshot's history, so building a request copies
	// nothing.
	History         History          `json:"history"`
	Tools           []ToolDescriptor `json:"tools,omitempty"`
	MaxOutputTokens int              `json:"max_output_tokens,omitempty"`
	Thinking        ThinkingLevel    `json:"thinking,omitempty"`
	// Turn is the 1-based number of this model call in its run.
	Turn int `json:"turn"`
	// Sampling is the agent's request options.
	Sampling Sampling `json:"sampling,omitzero"`
	// Output, when set, asks for a final answer matching the schema, in
	// the provider's native structured-output mode where it has one.
	Output *OutputSchema `json:"output,omitempty"`
	// Summary marks a request for a summary of older history, made for
	// compaction, rather than a turn of the run: its one user turn is
	// the history to condense, and its reply becomes the summary, not a
	// turn.
	Summary bool `json:"summary,omitempty"`
}

// InvokeModel asks for one assistant turn.
type InvokeModel struct{ Request ModelRequest }

// RunTool asks for one call to run.
type RunTool struct {
	Call ToolCall
	Tool ToolDescriptor
}

// StartDelegate asks for a child run: Task submitted to a new agent with
// Config on the session Session, or, when Session is already stored, that
// session resumed. The child's end comes back as DelegateSettled.
type StartDelegate struct {
	Call     ToolCall
	Delegate string
	Task     string
	Session  string
	Config   AgentConfig
	// Allowed is the parent's allowlist, which the child run starts with
	// (Submitted.Allowed), from revision 9 on.
	Allowed []string
}

// RequestApproval asks the host whether a call may run. Keys are what
// approving it for the session allowlists: tool:key entries, or the tool
// name for a tool that derives no keys.
type RequestApproval struct {
	Call ToolCall
	Tool ToolDescriptor
	Keys []string
}

// AskHuman puts a question the model asked to a person; the answer comes
// back as HumanAnswered, whenever it comes.
type AskHuman struct {
	Call     ToolCall
	Question Question
}

// Compact asks for a summary of Turns, which are history[:Cut].
type Compact struct {
	Turns []Turn
	Cut   int
}

// CancelInFlight stops work already started: the model stream when Model
// is set, and the named tool calls.
type CancelInFlight struct {
	Model   bool
	CallIDs []string
}

// Persist appends one committed record to the session. Links name child
// sessions whose delegate calls this step answered: the record's node
// links their chains' heads, so the session is a DAG.
type Persist struct {
	Record Record
	Links  []string
}

// Publish delivers an event to subscribers.
type Publish struct{ Event RunEvent }

func (*InvokeModel) EffectKind() EffectKind     { return EffInvokeModel }
func (*RunTool) EffectKind() EffectKind         { return EffRunTool }
func (*RequestApproval) EffectKind() EffectKind { return EffRequestApproval }
func (*AskHuman) EffectKind() EffectKind        { return EffAskHuman }
func (*Compact) EffectKind() EffectKind         { return EffCompact }
func (*CancelInFlight) EffectKind() EffectKind  { return EffCancelInFlight }
func (*Persist) EffectKind() EffectKind         { return EffPersist }
func (*Publish) EffectKind() EffectKind         { return EffPublish }
func (*StartDelegate) EffectKind() EffectKind   { return EffStartDelegate }

// Record is what a session stores per committed signal: the signal, its
// 1-based step number, and a stable one-line summary of the effects the
// step produced, which replay compares to catch nondeterminism.
type Record struct {
	Step    uint64 `json:"step"`
	Signal  Signal `json:"-"`
	Effects string `json:"effects"`
}
