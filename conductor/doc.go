// Package conductor is baton's one stateful, side-effecting layer. An
// Agent owns a session: it feeds signals to cadence one at a time and
// performs the effects each step returns, in order. It has no goroutine
// of its own: a caller or worker that hands in a signal while no other
// is being applied applies it, and the Submit caller runs the run's model
// calls while it waits, so a run in flight costs one goroutine. What
// another agent of its delegation tree offers it (an allowance) is never
// applied by that agent's goroutine, which a step of this one may wait
// for (Close closing a child): an idle agent takes it on a goroutine of
// its own, which Close waits for. The tool
// calls a step starts run next on the goroutine that applied the step,
// one after another; when one of them is still running after a short
// wait, helpers take the ones still waiting, so the calls of a batch that
// take long still run at once: a tool that ignores its context holds the
// goroutine it runs on, often the Submit caller, until it returns, though
// its call is answered at its timeout and the run goes on without it; a
// tool marked dispatch.OwnGoroutine always gets a goroutine of its own.
// Effects, in order: records are appended to the store before the events
// after them are published, model calls go through the turn driver, tool
// calls through the dispatch scheduler, compaction through the provider
// with a summary prompt. An agent holds its session's store lock while
// it drives the session; when the store says the lock is lost, the run
// in flight ends at once with a store error matching store.ErrLockLost.
// Its hold on a session begins with its first durable record there: a
// Submit or Resume that fails before that lets the session go, the
// agent's state unchanged, and may be tried again.
// Hosts call CreateAgent, Submit, Steer, FollowUp, Approve, Answer,
// Abort, Subscribe, Snapshot and Resume, and Close, or Leave to go
// without ending a run in flight, which stays in the store for Resume; ApproveCalls and AnswerCall
// name the run and turn of the call they decide, as model call ids are
// unique within one reply only; SetRunTools swaps the run's own tools
// while it is in flight, for a tool source whose tools changed, and its
// next model call offers them.
// Every host call that waits on the agent takes a context first. A
// context done before the agent takes the call up applies nothing, and
// the call's error matches the context's; a call taken up runs to its
// end and returns its own result, so input that was recorded is never
// reported as cancelled.
//
// A delegate call runs a child Agent through the same machinery, as one
// call on the parent's scheduler: its records form a chain of their own
// in the same store, linked at the parent's node that answers the call;
// it begins once the step that called it has published all its events,
// and its events reach the parent's subscribers after them, with their
// subflow path; the parent's Abort stops it, a store failure that stops
// it (a record refused, its lock lost) stops the parent's run too,
// leaving the call unanswered for Resume, and its approvals and
// questions are answered through the parent.
//
// It imports contract, compactor, cadence, ledger, store, dispatch, turn
// and internal/redact; never provider (hosts choose one) nor wire.
package conductor
