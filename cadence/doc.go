// Package cadence is baton's pure reducer: Step(snapshot, signal) returns
// the next snapshot and the effects the conductor must perform. It reads
// no clock, no randomness, no files and no network, starts no goroutine,
// and never mutates its input, so folding a session's recorded signals
// through Step rebuilds the session exactly: that is resume, and that is
// deterministic replay. It imports contract and compactor only.
//
// The host's whole loop is short:
//
//	rules := cadence.New(cfg)
//	snap := cadence.InitialSnapshot(sessionID)
//	for sig := range signals {
//		next, effects, err := rules.Step(snap, sig)
//		if err != nil { // a *Rejection: nothing happened
//			continue
//		}
//		snap = next
//		for _, e := range effects {
//			switch e := e.(type) {
//			case *contract.Persist: // append e.Record; durable before the next Publish
//			case *contract.Publish: // deliver e.Event
//			case *contract.InvokeModel, *contract.RunTool, *contract.RequestApproval, *contract.Compact:
//				// start the work; its answer comes back as a later signal
//			case *contract.CancelInFlight: // cancel the named work
//			}
//		}
//	}
//
// A signal that does not fit the snapshot (a result for an unknown call, a
// reply while no model call is out, anything but a submit after the run
// ended) is rejected with a *Rejection error: the snapshot comes back
// unchanged, with no effects. Steps folds a stored session record by
// record; Fold, Replay, resume and every printer of a session use it.
//
// Advance is the same step for a host that keeps one snapshot and moves
// it on in place (the conductor does): a snapshot is some 500 bytes, and
// the copies a call by value makes sit on the stack of whichever
// goroutine applies the step, for as long as it runs. AdvanceIn also
// works in a Scratch the host hands it, for a host that performs a
// step's effects before its next step: the 6.5 KiB a step may need is then
// used again rather than allocated (the effects point into it; the
// events they publish do not).
package cadence
