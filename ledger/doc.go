// Package ledger is baton's event hub: it fans run events out, in order, to
// any number of subscribers, each behind its own bounded queue, so a slow
// or panicking subscriber never stalls the run or its peers. A subscriber
// that falls behind never loses text: consecutive deltas of one part are
// merged, and the events that end a turn or a run (and approval requests),
// and every event of a delegated run, which nothing else brings back, are
// always kept; the root run's other events past its buffer are dropped,
// and it is told how many by an EvLag event as soon as it has caught up,
// whose Seq is the newest it missed: the committed events it lacks up to
// there are in the store. Beside the hub
// lives the run log's format: a JSONL sink, itself a subscriber, and its
// reader (baton run --json writes it).
//
// ledger imports only contract of baton's packages.
package ledger
