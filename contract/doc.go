// Package contract is baton's vocabulary: turns and blocks, tool
// descriptors, agent configuration, the run snapshot and its phases, the
// signals that drive a run, the effects a step asks for, the events hosts
// see, and the one error type. It holds data and the canonical encoding of
// that data, never behaviour: every other package of baton imports it, and
// it imports nothing of baton's.
//
// Each effect is answered by signals the conductor feeds back:
//
//	effect            answered by
//	InvokeModel       ModelReplied, ModelFailed
//	RunTool           ToolSettled (revision 1 rules: ToolStarted first)
//	StartDelegate     DelegateSettled
//	RequestApproval   ApprovalResolved
//	AskHuman          HumanAnswered
//	Compact           Compacted, CompactionFailed
//	CancelInFlight    (nothing: the cancelled work's answers are dropped)
//	Persist           (nothing: durable before the next Publish is delivered)
//	Publish           (nothing)
//
// Host input arrives on its own: Submitted, Steered, FollowUpQueued,
// AbortRequested and Resumed; what other runs of a delegation tree
// allowed, as AllowanceShared; and a run's own tools as a tool source
// changed them mid-run, as ToolsChanged.
package contract
