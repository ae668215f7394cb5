package contract

// CurrentRevision is the revision of the run rules this release writes.
// A recorded session replays under the revision its submits recorded, so
// behaviour added in a later revision never changes how an older session
// replays. Revision 0, what every config recorded before revisions existed
// carries, keeps the rules as they were; cadence.New leaves a zero
// Revision alone and conductor.CreateAgent fills in CurrentRevision.
//
// Revision 1 adds: the turns of a failed run left out of later model calls
// (FailedRunsPolicy), the no_progress loop guard, and turn_started events.
//
// Revision 2 adds: the rules schedule tool calls (RevisionReducerSchedules).
//
// Revision 3 adds: queued steering is delivered before the loop guard
// may fault the run, and a delivered steer starts the repeat guard's count
// over as it does the no_progress guard's (RevisionSteeringFirst); a
// context overflow compacts again only if history changed since the last
// compaction attempt, and otherwise faults the run with the model's
// failure; a resume that moves a run of revision 0 or 1 onto it puts the
// calls handed out but never started back in the queue, so the rules
// schedule them.
//
// Revision 4 adds: at the turn cap, work that only serves a next model
// call is not started (RevisionCauseAtCap): a context overflow on the
// run's last call faults the run with the overflow rather than asking
// for a summary and then faulting as max_turns, and a final answer that
// does not match the output schema faults the run with kind output
// rather than being sent back for a retry the cap forbids.
//
// Revision 5 adds: a model with no known tokenizer is counted by a
// character fallback that errs on the safe side in every script
// (RevisionBoundedEstimates).
//
// Revision 6 adds: a run resumed while its model call was out sends the
// call again with the steering queued before the stop delivered into it
// (RevisionSteerOnResume).
//
// Revision 7 adds: a run that faults or is aborted with steering or
// follow-up input still queued publishes an input_dropped event for each
// before its end event (RevisionReportsDropped).
//
// Revision 8 adds: a delegate call whose parent's session id is too long
// to extend names its child's session with a digest of the whole parent
// id, so parents that end alike name their children apart
// (RevisionChildDigest).
//
// Revision 9 adds: what was allowed for the session holds in the whole
// delegation tree under it: a delegate's child run starts with what its
// parent allows, and what the child allowed is kept by its parent when
// the child's run ends (RevisionAllowTree).
//
// Revision 10 adds: what is allowed for the session while delegates'
// children run reaches them at once, and what they allow reaches their
// parent at once, as AllowanceShared (RevisionAllowRunning).
//
// Revision 11 adds: a run resumed while its model call was out compacts
// before sending the call again when the steering queued meanwhile brings
// history due for compaction (RevisionCompactOnResume).
//
// Revision 12 adds: a run's own tools may change while it is in flight,
// as ToolsChanged, and its next model call offers them
// (RevisionToolsChanged).
//
// Revision 13 adds: every model-call boundary asks whether the steering
// it delivers brings history due for compaction, and compacts first
// when it does (RevisionCompactWithSteering).
//
// Revision 14 adds: a tool choice that makes the model call a tool holds
// until the run's first round of tool calls (RevisionChoiceOnce); the answers a
// run sent back for not matching the output schema are counted in its
// snapshot, so a compaction does not give it its retries again
// (RevisionRetriesCounted); a run that gives up on delegate calls still
// out publishes subflow_failed for each (RevisionEndsChildren); a call to
// a delegate an agent at the depth limit does not offer is answered with
// why (RevisionSaysDepthCap); the loop guards read a call's arguments
// with their keys in order (RevisionLoopKeysSorted).
const CurrentRevision = RevisionChoiceOnce

// RevisionReducerSchedules is the first revision whose rules decide which
// tool calls start (at most ToolConcurrency at once, a sequential tool
// alone) and whose RunTool means "start now": the persist of the step that
// emits it is the call's start record, and the ToolStarted signal of
// earlier revisions is refused. A resume (Resumed.Revision) moves a run
// of an earlier revision in flight onto it.
const RevisionReducerSchedules = 2

// RevisionSteeringFirst is the first revision under which steering the
// host was told was accepted always reaches the model before the loop
// guard (repeats or no_progress) may fault the run: a steer queued when
// the guard reaches its critical count is delivered instead, and the
// model, now steered, is watched afresh. Revision 3 also stops the
// compaction loop a context overflow could start: an overflow on a
// history that has not changed since the last compaction attempt faults
// the run (kind model, the overflow as its cause) instead of compacting
// it again after every model call until the turn cap. And a resume that
// moves a run of revision 0 or 1 onto it (whose rules hand out calls the
// conductor starts) puts the calls handed out but never started back in
// the queue, so they start as ToolConcurrency and sequential tools allow
// rather than all at once.
const RevisionSteeringFirst = 3

// RevisionCauseAtCap is the first revision under which a run that made
// its last allowed model call ends with that call's own failure: an
// overflow (kind model) or an answer that does not match the output
// schema (kind output), rather than compacting or appending a retry note
// for a model call that cannot come, and then faulting as max_turns.
const RevisionCauseAtCap = 4

// RevisionBoundedEstimates is the first revision whose token estimates,
// for a model with no known tokenizer, count a token for every three
// bytes of each ASCII run and a token for every other byte, rather than
// a token for every four bytes: bytes/4 counted Chinese, Greek, Arabic
// or emoji at half or a third of what a tokenizer makes of them, and
// code and JSON short too, so history outgrew the context window before
// compaction started. The counts the rules make themselves (reminders,
// notes, summaries, results of calls that never ran) follow the run's
// revision, so older sessions replay with the counts they recorded.
const RevisionBoundedEstimates = 5

// RevisionSteerOnResume is the first revision under which a run resumed
// while awaiting the model delivers the steering queued before the stop
// into the call it sends again. Earlier revisions sent the call as it
// was and delivered the steer only after that call's reply, one model
// call later than a steer the host was told was accepted belongs: the
// call that was out died with the process, so the one sent again is the
// next call, and a steer queued before it is due in it.
const RevisionSteerOnResume = 6

// RevisionReportsDropped is the first revision under which input the
// host was told was accepted and the run never delivered, because it
// faulted or was aborted first, is reported: one input_dropped event per
// input, before the run's end event. Earlier revisions dropped it
// silently, so a chat client showed the text as taken and it vanished.
const RevisionReportsDropped = 7

// RevisionChildDigest is the first revision under which the session of a
// delegate call whose parent's id is too long to take "/STEP.INDEX" keeps
// a digest of the whole parent id (see ChildSessionAt). Earlier revisions
// cut the parent's id from the front alone, so two sessions whose ids
// ended alike, or the descendants of two roots deep enough down, named
// their delegates' sessions alike: in one store a delegate of one ran on,
// resumed or was read as the other's child run.
const RevisionChildDigest = 8

// RevisionAllowTree is the first revision under which an approval for the
// session reaches the delegation tree: a delegate call hands its child
// the parent's allowlist (StartDelegate.Allowed, recorded as the child's
// Submitted.Allowed), and the child's allowlist comes back with its end
// (DelegateSettled.Allowed) to be kept by the parent, and so by the root
// and every later child. Earlier revisions kept an "always" in the
// session of the run that asked: the next delegate call, its siblings and
// the root asked again, for what the person was told was allowed. A
// child already running takes nothing allowed elsewhere meanwhile: it
// asks for itself until it ends (see RevisionAllowRunning).
const RevisionAllowTree = 9

// RevisionAllowRunning is the first revision under which a run in flight
// takes what other runs of its delegation tree allowed meanwhile
// (AllowanceShared): an "always" given in the parent, or in a sibling
// child and passed up, reaches a child already running, which stops
// asking for it and approves its calls waiting on it; and a child's
// "always" reaches its parent, and so the root and the other children,
// at once rather than at the child's end. Earlier revisions refuse the
// signal, so their runs record none and replay as they were.
const RevisionAllowRunning = 10

// RevisionCompactOnResume is the first revision under which a run resumed
// while its model call was out asks whether the steering queued meanwhile
// brings history due for compaction, as the boundary the lost reply led
// to would have, and compacts first when it does; the call then goes out
// as a boundary sends it, with the steer delivered after the summary.
// Earlier revisions delivered the steer into the call sent again
// unchecked, so a long steer sent a request over the model's context
// window.
const RevisionCompactOnResume = 11

// RevisionToolsChanged is the first revision under which a run in
// flight takes a new list of its own tools (ToolsChanged), as a tool
// source whose tools changed mid-run (an MCP server's tools/list_changed)
// gives it: the run's tools are replaced, the next model call offers
// them, a call made after the change to a tool it dropped is answered
// as an unknown tool, and a call made before it runs as it was.
// Earlier revisions refuse the signal, so a run kept the tools its
// submit gave until it ended, and a tool a server added mid-run reached
// only the next run.
const RevisionToolsChanged = 12

// RevisionCompactWithSteering is the first revision under which a
// model-call boundary asks the compaction policy about history as the
// call will carry it, with the queued steering delivered, and compacts
// first when that is due; the steer is then delivered after the summary,
// verbatim. Earlier revisions asked before the steer was counted, so a
// long steer sent a request over the model's context window, and the
// overflow it met cost a billed call before compaction came.
const RevisionCompactWithSteering = 13

// RevisionChoiceOnce is the first revision under which a tool choice
// that makes the model call a tool (Sampling.ToolChoice required, or
// naming a tool) holds until the run's first round of tool calls: the
// calls after it send ToolChoiceAuto, so the model can answer with the
// results, while a call that failed (a context overflow sent again after
// a summary) keeps the choice. Earlier
// revisions sent the choice with every call, so the model could never
// reply without a tool call and the run went on until MaxTurns or the
// loop guard ended it.
const RevisionChoiceOnce = 14

// RevisionRetriesCounted is the first revision under which a run counts
// the final answers it sent back for not matching the output schema in
// its snapshot (RunSnapshot.OutputRetries). Earlier revisions counted
// the notes that sent them back in the run's history: once a summary
// replaced one, the run sent back more answers than Output.Retries
// allows, each compaction more, until the turn cap ended it.
const RevisionRetriesCounted = 14

// RevisionEndsChildren is the first revision under which a run that ends
// with delegate calls still out (an abort, a fault, a lost lock) publishes
// subflow_failed for each child it gave up on, before the call's result.
// Earlier revisions answered the calls without it, so a stream that
// showed a child's subflow_started never showed it end.
const RevisionEndsChildren = 14

// RevisionSaysDepthCap is the first revision under which a call to one
// of an agent's delegates, which the agent at the delegation depth limit
// does not offer, is answered saying so. Earlier revisions answered it
// as an unknown tool, and a model that knew the delegate from its
// instructions went looking for it under other names.
const RevisionSaysDepthCap = 14

// RevisionLoopKeysSorted is the first revision under which the loop
// guard and the no-progress guard read a call's arguments with their
// objects' keys in order, so a repeat whose keys come in another order
// is the same call. Earlier revisions took each order for another call:
// a model repeating itself with its keys shuffled was seen late, as an
// alternation, or not at all.
const RevisionLoopKeysSorted = 14

// FailedRunsPolicy says what the model sees, in later runs of a session,
// of a run that faulted or was aborted. The session's store keeps every
// turn whatever the policy; it decides only what later model calls see.
type FailedRunsPolicy string

const (
	// FailedRunsDefault is FailedRunsExclude from revision 1 on and
	// FailedRunsKeep at revision 0.
	FailedRunsDefault FailedRunsPolicy = ""
	// FailedRunsExclude leaves the failed run's turns (its input, replies
	// and tool results) out of later model calls; only a short note that
	// the run failed, and why, stays in view.
	FailedRunsExclude FailedRunsPolicy = "exclude"
	// FailedRunsKeep leaves everything in view, as revision 0 did.
	FailedRunsKeep FailedRunsPolicy = "keep"
)

// ExcludesFailedRuns reports whether the config's runs leave failed runs'
// turns out of later model calls.
func (c AgentConfig) ExcludesFailedRuns() bool {
	switch c.FailedRuns {
	case FailedRunsExclude:
		return true
	case FailedRunsKeep:
		return false
	}
	return c.Revision >= 1
}
