package cadence

import (
	"errors"

	"github.com/batonrt/baton/contract"
)

// ErrRejected is matched by every *Rejection.
var ErrRejected = errors.New("cadence: signal rejected")

// Rejection is Step's answer to a signal that does not fit the snapshot:
// a result for an unknown call, a reply while no model call is out,
// anything but a submit after the run ended. Nothing happened: the
// snapshot is unchanged and there is nothing to persist or publish.
type Rejection struct {
	// Signal is the refused signal's kind; empty for a nil signal.
	Signal contract.SignalKind
	// Phase is the snapshot's phase when it was refused.
	Phase contract.Phase
	// Reason says why, for people.
	Reason string
}

func (r *Rejection) Error() string {
	kind := r.Signal
	if kind == "" {
		kind = "nil"
	}
	return "cadence: " + string(kind) + " rejected in phase " + string(r.Phase) + ": " + r.Reason
}

// Is makes errors.Is(err, ErrRejected) hold.
func (r *Rejection) Is(target error) bool { return target == ErrRejected }

func reject(phase contract.Phase, sig contract.Signal, reason string) *Rejection {
	r := &Rejection{Phase: phase, Reason: reason}
	if sig != nil {
		r.Signal = sig.SignalKind()
	}
	return r
}
