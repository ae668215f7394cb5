package conductor

import "fmt"

// askedNow checks that the call a decision or an answer names by its
// run and turn (either may be unset) is one of the run in flight at its
// current turn: call ids are unique within one model reply only, so what
// a person gave for an earlier run's or turn's call must not be taken by
// a later call of the same id. In turn (enqueue).
func (a *Agent) askedNow(callID, runID string, turn int) error {
	switch {
	case runID != "" && runID != a.state.RunID:
		return fmt.Errorf("%w: call %q of run %q no longer waits: the run in flight is %q", ErrRejected, callID, runID, a.state.RunID)
	case turn != 0 && turn != a.state.Turns:
		return fmt.Errorf("%w: call %q of turn %d no longer waits: the run is at turn %d", ErrRejected, callID, turn, a.state.Turns)
	}
	return nil
}
