package cadence

import (
	"github.com/batonrt/baton/compactor"
	"github.com/batonrt/baton/contract"
)

// A run records the revision it started under in its snapshot and keeps
// it, so its records replay under the rules that made them, whether the
// fold starts at the submit or at a checkpoint; only a resume that asks
// for a newer revision moves it on.

// schedules says the rules decide which calls start and a RunTool means
// "start now".
func (t *transition) schedules() bool {
	return t.s.Revision >= contract.RevisionReducerSchedules
}

// steeringFirst says queued steering is delivered before the loop guard
// may fault the run (revision 3 on): delivering it starts the guard's
// count over, so a fault now would drop a steer the host was told was
// accepted.
func (t *transition) steeringFirst() bool {
	return t.s.Revision >= contract.RevisionSteeringFirst && t.hasQueued(contract.InputSteer)
}

// atCap says the run made its last allowed model call, so no work that
// only serves a next one is started (revision 4 on): the run ends with
// the cause at hand rather than with max_turns at the next boundary.
func (t *transition) atCap() bool {
	return t.s.Revision >= contract.RevisionCauseAtCap && t.s.Turns >= t.rules.cfg.MaxTurns
}

// estimator counts the turns the rules make as the run's revision does
// (the bounded fallback from revision 5 on), so a recorded session
// replays with the counts it recorded.
func (t *transition) estimator() compactor.Estimator {
	if t.s.Revision >= contract.RevisionBoundedEstimates {
		return t.rules.estimators[1]
	}
	return t.rules.estimators[0]
}

// steersOnResume says a model call sent again on resume carries the
// steering queued while it was out (revision 6 on).
func (t *transition) steersOnResume() bool {
	return t.s.Revision >= contract.RevisionSteerOnResume
}

// compactsOnResume says a model call sent again on resume first asks
// whether its steering brings history due for compaction (revision 11
// on).
func (t *transition) compactsOnResume() bool {
	return t.s.Revision >= contract.RevisionCompactOnResume
}

// compactsWithSteering says a boundary asks whether the steering it
// delivers brings history due for compaction (revision 13 on).
func (t *transition) compactsWithSteering() bool {
	return t.s.Revision >= contract.RevisionCompactWithSteering
}

// reportsDropped says a run that ends with input still queued publishes
// an input_dropped event for each (revision 7 on).
func (t *transition) reportsDropped() bool {
	return t.s.Revision >= contract.RevisionReportsDropped
}

// allowsTree says what the session allows reaches the delegation tree
// (revision 9 on): a child starts with its parent's allowlist, and the
// parent keeps what the child allowed.
func (t *transition) allowsTree() bool {
	return t.s.Revision >= contract.RevisionAllowTree
}

// countsRetries says the run counts the answers it sent back for not
// matching the output schema in its snapshot (revision 14 on), so a
// summary that replaced the notes sending them back does not give the
// run its retries again.
func (t *transition) countsRetries() bool {
	return t.s.Revision >= contract.RevisionRetriesCounted
}

// endsChildren says a run that gives up on its delegate calls still out
// publishes subflow_failed for each (revision 14 on), so a stream that
// showed a child start shows it end.
func (t *transition) endsChildren() bool {
	return t.s.Revision >= contract.RevisionEndsChildren
}

// upgrade moves the run in flight to a newer revision when a resume asks
// for one; a run never goes back to an older one.
func (t *transition) upgrade(sig contract.Resumed) {
	if sig.Revision > t.s.Revision && sig.Revision <= contract.CurrentRevision {
		retries := int32(t.outputRetries())
		t.s.Revision = sig.Revision
		if t.countsRetries() {
			// The count moves to the snapshot with what history shows.
			t.s.OutputRetries = retries
		}
	}
}
