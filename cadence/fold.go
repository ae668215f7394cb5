package cadence

import (
	"errors"
	"fmt"

	"github.com/batonrt/baton/contract"
)

// ErrNondeterministic is matched by every *Divergence.
var ErrNondeterministic = errors.New("cadence: nondeterministic replay")

// ErrRejectedRecord: a recorded signal was rejected on replay, so the
// record cannot have come from these rules.
var ErrRejectedRecord = errors.New("cadence: recorded signal rejected")

// Divergence names the first step where replayed effects differ from the
// recorded ones.
type Divergence struct {
	Step     uint64
	Recorded string
	Replayed string
}

func (d *Divergence) Error() string {
	return fmt.Sprintf("cadence: nondeterministic step %d: recorded %q, replayed %q", d.Step, d.Recorded, d.Replayed)
}

// Is makes errors.Is(err, ErrNondeterministic) hold.
func (d *Divergence) Is(target error) bool { return target == ErrNondeterministic }

// ForRecord returns the rules a recorded signal is stepped under when a
// session is folded or replayed: a submit that recorded its agent's config
// starts its run under that config; any other signal keeps r. A run's
// records thus replay under the rules that made them, whatever config the
// replaying process has.
func (r *Rules) ForRecord(sig contract.Signal) *Rules {
	if sub, ok := sig.(contract.Submitted); ok && sub.Config != nil {
		return New(*sub.Config)
	}
	return r
}

// Fold applies the records' signals in order and returns the snapshot
// they lead to; each run is folded under the config its submit recorded
// (see ForRecord). A signal the rules reject is an error: a stored session
// holds only committed signals.
func (r *Rules) Fold(s contract.RunSnapshot, records []contract.Record) (contract.RunSnapshot, error) {
	return r.fold(s, records, false)
}

// Replay folds like Fold and also compares each step's effects with what
// was recorded, returning a *Divergence at the first difference.
func (r *Rules) Replay(s contract.RunSnapshot, records []contract.Record) (contract.RunSnapshot, error) {
	return r.fold(s, records, true)
}

func (r *Rules) fold(s contract.RunSnapshot, records []contract.Record, compare bool) (contract.RunSnapshot, error) {
	cur := r
	for _, rec := range records {
		cur = cur.ForRecord(rec.Signal)
		next, effects := cur.Step(s, rec.Signal)
		persisted, ok := firstPersist(effects)
		if !ok {
			return s, fmt.Errorf("%w: step %d (%s): %s", ErrRejectedRecord, rec.Step, kindOf(rec.Signal), rejectionText(effects))
		}
		if compare {
			if persisted.Step != rec.Step {
				return s, &Divergence{Step: rec.Step, Recorded: fmt.Sprintf("step %d", rec.Step), Replayed: fmt.Sprintf("step %d", persisted.Step)}
			}
			if persisted.Effects != rec.Effects {
				return s, &Divergence{Step: rec.Step, Recorded: rec.Effects, Replayed: persisted.Effects}
			}
		}
		s = next
	}
	return s, nil
}

func firstPersist(effects []contract.Effect) (contract.Record, bool) {
	if len(effects) == 0 {
		return contract.Record{}, false
	}
	p, ok := effects[0].(contract.Persist)
	return p.Record, ok
}

func rejectionText(effects []contract.Effect) string {
	for _, e := range effects {
		if p, ok := e.(contract.Publish); ok && p.Event.Kind == contract.EvSignalRejected {
			return p.Event.Text
		}
	}
	return "rejected"
}

func kindOf(s contract.Signal) contract.SignalKind {
	if s == nil {
		return "nil"
	}
	return s.SignalKind()
}
