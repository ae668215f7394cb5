// Package conductor is baton's one stateful, side-effecting layer. An
// Agent owns a session: one goroutine holds its snapshot and feeds
// signals to cadence one at a time, and performs the effects each step
// returns, in order: records are appended to the store before the events
// after them are published, model calls go through the turn driver, tool
// calls through the dispatch scheduler, compaction through the provider
// with a summary prompt. Hosts call CreateAgent, Submit, Steer, FollowUp,
// Approve, Answer, Abort, Subscribe, Snapshot and Resume.
//
// It imports contract, compactor, cadence, ledger, store, dispatch and
// turn; never provider (hosts choose one) nor wire.
package conductor
