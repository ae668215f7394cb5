package store

import (
	"context"
	"slices"

	"github.com/batonrt/baton/cadence"
	"github.com/batonrt/baton/contract"
)

// dagReplay replays the chains of delegated runs linked into a session.
type dagReplay struct {
	st    Store
	rules *cadence.Rules
	done  map[Hash]bool
	// names maps heads to the sessions they head, read once when needed.
	names map[Hash]string
}

// links replays every chain linked from the chain ending at head.
func (r *dagReplay) links(ctx context.Context, head Hash) error {
	for n, err := range r.st.Walk(ctx, head) {
		if err != nil {
			return err
		}
		for _, l := range n.Links {
			if r.done[l] {
				continue
			}
			r.done[l] = true
			name, err := r.name(ctx, l)
			if err != nil {
				return err
			}
			if err := r.chain(ctx, name, l); err != nil {
				return errorf("child %q linked at step %d: %w", name, n.Record.Step, err)
			}
		}
	}
	return nil
}

// chain replays one linked chain from its first record, then its links.
func (r *dagReplay) chain(ctx context.Context, name string, head Hash) error {
	var recs []contract.Record
	for n, err := range r.st.Walk(ctx, head) {
		if err != nil {
			return err
		}
		recs = append(recs, n.Record)
	}
	slices.Reverse(recs)
	if len(recs) == 0 || recs[0].Step != 1 {
		return errorf("%w: linked chain does not start at step 1", ErrCorrupt)
	}
	if _, err := r.rules.Replay(cadence.InitialSnapshot(name), recs); err != nil {
		return err
	}
	return r.links(ctx, head)
}

// name returns the session a linked head belongs to: the session whose
// head it is, or, for a chain no session heads any more, the hash.
func (r *dagReplay) name(ctx context.Context, h Hash) (string, error) {
	if r.names == nil {
		r.names = map[Hash]string{}
		ids, err := r.st.Sessions(ctx)
		if err != nil {
			return "", err
		}
		for _, id := range ids {
			if head, err := r.st.Head(ctx, id); err == nil {
				r.names[head] = id
			}
		}
	}
	if name, ok := r.names[h]; ok {
		return name, nil
	}
	return "chain " + h.String(), nil
}
