package cadence

import (
	"errors"
	"fmt"
	"iter"

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
// session is folded or replayed: a submit or a resume that recorded its
// agent's config goes on under that config; a resume without one (as
// every resume was recorded before resumes recorded their config) that
// recorded a newer revision goes on under that revision; any other
// signal keeps r. A run's records thus replay under the rules that made
// them, whatever config the replaying process has.
func (r *Rules) ForRecord(sig contract.Signal) *Rules {
	switch sig := sig.(type) {
	case contract.Submitted:
		if sig.Config != nil {
			return New(*sig.Config)
		}
	case contract.Resumed:
		if sig.Config != nil {
			return New(*sig.Config)
		}
		if sig.Revision > r.cfg.Revision && sig.Revision <= contract.CurrentRevision {
			cfg := r.cfg
			cfg.Revision = sig.Revision
			return New(cfg)
		}
	}
	return r
}

// Folded is one step of a fold: the record, the snapshots before and
// after it, the effects its signal produced, and the record those
// effects persist (what the rules would have stored).
type Folded struct {
	Record    contract.Record
	Before    contract.RunSnapshot
	After     contract.RunSnapshot
	Effects   []contract.Effect
	Persisted contract.Record
}

// Steps folds records from s in order, each run under the config its
// submit recorded (see ForRecord), and yields every step. A record the
// rules reject yields an error matching ErrRejectedRecord and its
// *Rejection, and ends the sequence: a stored session holds only
// committed signals.
func (r *Rules) Steps(s contract.RunSnapshot, records []contract.Record) iter.Seq2[Folded, error] {
	return func(yield func(Folded, error) bool) {
		cur := r
		for _, rec := range records {
			cur = cur.ForRecord(rec.Signal)
			next, effects, err := cur.Step(s, rec.Signal)
			if err != nil {
				yield(Folded{Record: rec, Before: s, After: s}, &rejectedRecord{step: rec.Step, rej: err.(*Rejection)})
				return
			}
			f := Folded{Record: rec, Before: s, After: next, Effects: effects, Persisted: effects[0].(*contract.Persist).Record}
			if !yield(f, nil) {
				return
			}
			s = next
		}
	}
}

// Fold applies the records' signals in order and returns the snapshot
// they lead to (see Steps).
func (r *Rules) Fold(s contract.RunSnapshot, records []contract.Record) (contract.RunSnapshot, error) {
	for f, err := range r.Steps(s, records) {
		if err != nil {
			return s, err
		}
		s = f.After
	}
	return s, nil
}

// Replay folds like Fold and also compares each step's effects with what
// was recorded, returning a *Divergence at the first difference.
func (r *Rules) Replay(s contract.RunSnapshot, records []contract.Record) (contract.RunSnapshot, error) {
	for f, err := range r.Steps(s, records) {
		if err != nil {
			return s, err
		}
		if err := Compare(f.Record, f.Persisted); err != nil {
			return s, err
		}
		s = f.After
	}
	return s, nil
}

// Compare returns a *Divergence when a replayed record's step number or
// effect summary differs from the recorded one's, and nil otherwise.
func Compare(recorded, replayed contract.Record) error {
	if replayed.Step != recorded.Step {
		return &Divergence{Step: recorded.Step, Recorded: fmt.Sprintf("step %d", recorded.Step), Replayed: fmt.Sprintf("step %d", replayed.Step)}
	}
	if replayed.Effects != recorded.Effects {
		return &Divergence{Step: recorded.Step, Recorded: recorded.Effects, Replayed: replayed.Effects}
	}
	return nil
}

// rejectedRecord is a stored record the rules refuse; it matches both
// ErrRejectedRecord and its *Rejection.
type rejectedRecord struct {
	step uint64
	rej  *Rejection
}

func (e *rejectedRecord) Error() string {
	kind := e.rej.Signal
	if kind == "" {
		kind = "nil"
	}
	return fmt.Sprintf("%v: step %d (%s): %s", ErrRejectedRecord, e.step, kind, e.rej.Reason)
}

func (e *rejectedRecord) Unwrap() []error { return []error{ErrRejectedRecord, e.rej} }
