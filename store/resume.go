package store

import (
	"context"

	"github.com/batonrt/baton/cadence"
	"github.com/batonrt/baton/contract"
)

// CheckpointEvery is how many records Resume folds before it saves a
// checkpoint at the head, so the next resume folds at most about this
// many records.
const CheckpointEvery = 256

// Resume rebuilds the session's snapshot: it starts from the newest
// checkpoint that lies on the session's chain (or the initial snapshot)
// and folds the records after it through rules. A checkpoint is only a
// shortcut: one that cannot be read, or whose snapshot is not of this
// session or does not count the steps of the node it names (damage
// Verify reports), is ignored, and the records are folded from the first. When it folded
// CheckpointEvery records or more it saves a checkpoint at the head; a
// failure to save one does not fail the resume. Call it holding the
// session's lock.
func Resume(ctx context.Context, st Store, rules *cadence.Rules, sessionID string) (contract.RunSnapshot, error) {
	if rules == nil {
		return contract.RunSnapshot{}, errorf("store: resume %q: %w: nil rules", sessionID, ErrInvalid)
	}
	head, err := st.Head(ctx, sessionID)
	if err != nil {
		return contract.RunSnapshot{}, errorf("store: resume: %w", err)
	}
	snap, base := cadence.InitialSnapshot(sessionID), Hash{}
	if cp, err := st.Checkpoint(ctx, sessionID); err == nil && cp.Snapshot.SessionID == sessionID {
		snap, base = cp.Snapshot, cp.At
	}
	var recs []contract.Record
	reachedBase := false
	for n, err := range st.Walk(ctx, head) {
		if err != nil {
			return contract.RunSnapshot{}, errorf("store: resume %q: %w", sessionID, err)
		}
		if n.Hash == base && n.Record.Step == snap.Steps {
			reachedBase = true
			break
		}
		recs = append(recs, n.Record)
	}
	if !reachedBase {
		snap = cadence.InitialSnapshot(sessionID)
	}
	for i, j := 0, len(recs)-1; i < j; i, j = i+1, j-1 {
		recs[i], recs[j] = recs[j], recs[i]
	}
	snap, err = rules.Fold(snap, recs)
	if err != nil {
		return contract.RunSnapshot{}, errorf("store: resume %q: %w", sessionID, err)
	}
	if len(recs) >= CheckpointEvery {
		_ = st.SaveCheckpoint(ctx, sessionID, head, snap)
	}
	return snap, nil
}

// Replay folds the whole session from the initial snapshot through rules,
// comparing each step's effect summary with the recorded one; the first
// difference is a *cadence.Divergence (errors.Is cadence.ErrNondeterministic)
// saying which step. It ignores checkpoints: it checks the chain itself.
// Then it replays every delegated run's chain linked into the session, at
// any depth; a divergence there names the child session and the step of
// the parent's node that links it.
func Replay(ctx context.Context, st Store, rules *cadence.Rules, sessionID string) error {
	if rules == nil {
		return errorf("store: replay %q: %w: nil rules", sessionID, ErrInvalid)
	}
	recs, err := st.Records(ctx, sessionID)
	if err != nil {
		return errorf("store: replay: %w", err)
	}
	if _, err := rules.Replay(cadence.InitialSnapshot(sessionID), recs); err != nil {
		return errorf("store: replay %q: %w", sessionID, err)
	}
	head, err := st.Head(ctx, sessionID)
	if err != nil {
		return errorf("store: replay: %w", err)
	}
	r := &dagReplay{st: st, rules: rules, done: map[Hash]bool{}}
	if err := r.links(ctx, head); err != nil {
		return errorf("store: replay %q: %w", sessionID, err)
	}
	return nil
}
