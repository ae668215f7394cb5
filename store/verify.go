package store

import (
	"context"
	"errors"
)

// maxProblems bounds what Verify reports, so a wrecked store still gives
// a readable error.
const maxProblems = 50

type verifier struct {
	d        *db
	seen     map[Hash]uint64 // verified node -> its step
	problems []error
}

func (v *verifier) add(err error) {
	if len(v.problems) < maxProblems {
		v.problems = append(v.problems, err)
	}
}

func (d *db) Verify(ctx context.Context) error {
	v := &verifier{d: d, seen: map[Hash]uint64{}}
	sessions, err := d.Sessions(ctx)
	if err != nil {
		return errorf("store: verify: %w", err)
	}
	for _, id := range sessions {
		if err := ctx.Err(); err != nil {
			return errorf("store: verify: %w", err)
		}
		v.session(ctx, id)
	}
	cps, err := d.b.Refs(ctx, RefCheckpoints)
	if err != nil {
		return errorf("store: verify: %w", err)
	}
	for _, id := range cps {
		v.checkpoint(ctx, id)
	}
	return errors.Join(v.problems...)
}

func (v *verifier) session(ctx context.Context, id string) {
	head, err := v.d.b.Ref(ctx, RefHeads, id)
	if err != nil {
		v.add(errorf("store: verify %q: %w", id, err))
		return
	}
	if head.IsZero() {
		v.add(errorf("store: verify %q: %w: zero head", id, ErrBrokenRef))
		return
	}
	if _, err := v.chain(ctx, head); err != nil {
		if errors.Is(err, ErrNotFound) {
			err = errorf("%w: %w", ErrBrokenRef, err)
		}
		v.add(errorf("store: verify %q: %w", id, err))
	}
}

// chain verifies the chain ending at head, and every chain linked into
// it, returning head's step. Nodes verified before are not read again.
func (v *verifier) chain(ctx context.Context, head Hash) (uint64, error) {
	var path []Node
	h := head
	for !h.IsZero() {
		if _, ok := v.seen[h]; ok {
			break
		}
		n, err := v.d.Node(ctx, h)
		if err != nil {
			if len(path) > 0 && errors.Is(err, ErrNotFound) {
				err = errorf("node %s names parent %s: %w", path[len(path)-1].Hash, h, ErrMissingParent)
			}
			return 0, err
		}
		path = append(path, n)
		h = n.Parent
	}
	step := v.seen[h] // zero for the root's zero parent
	for i := len(path) - 1; i >= 0; i-- {
		n := path[i]
		if n.Record.Step != step+1 {
			return 0, errorf("node %s: %w: step %d follows step %d", n.Hash, ErrCorrupt, n.Record.Step, step)
		}
		for _, l := range n.Links {
			if _, err := v.chain(ctx, l); err != nil {
				if errors.Is(err, ErrNotFound) {
					err = errorf("node %s links %s: %w", n.Hash, l, ErrMissingParent)
				}
				return 0, err
			}
		}
		step = n.Record.Step
		v.seen[n.Hash] = step
	}
	return v.seen[head], nil
}

func (v *verifier) checkpoint(ctx context.Context, id string) {
	cp, err := v.d.Checkpoint(ctx, id)
	if err != nil {
		v.add(errorf("store: verify checkpoint %q: %w", id, err))
		return
	}
	step, err := v.chain(ctx, cp.At)
	if errors.Is(err, ErrNotFound) {
		err = errorf("%w: %w", ErrBrokenRef, err)
	}
	if err == nil && step != cp.Snapshot.Steps {
		err = errorf("%w: snapshot has %d steps at step %d", ErrCorrupt, cp.Snapshot.Steps, step)
	}
	// Resume ignores a checkpoint not of the session, as damage.
	if err == nil && cp.Snapshot.SessionID != id {
		err = errorf("%w: the snapshot is of session %q", ErrCorrupt, cp.Snapshot.SessionID)
	}
	if err == nil {
		err = v.onChain(ctx, id, cp.At, step)
	}
	if err != nil {
		v.add(errorf("store: verify checkpoint %q: %w", id, err))
	}
}

// onChain checks that the node at, of the given step, is on the chain of
// the session's head, walking back from the head to that step.
func (v *verifier) onChain(ctx context.Context, id string, at Hash, step uint64) error {
	head, err := v.d.b.Ref(ctx, RefHeads, id)
	if err != nil {
		return err
	}
	for h := head; !h.IsZero(); {
		if h == at {
			return nil
		}
		n, err := v.d.Node(ctx, h)
		if err != nil {
			return err
		}
		if n.Record.Step <= step {
			break
		}
		h = n.Parent
	}
	return errorf("%w: node %s is not on the session's chain", ErrCorrupt, at)
}
