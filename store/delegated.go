package store

import (
	"context"

	"github.com/batonrt/baton/contract"
)

// withDelegated returns ids, each followed by the sessions of its
// delegate calls at every depth, among all: a child run has a session of
// its own, linked from its parent's chain only once its call settles, so
// a parent exported mid-call needs the child's session named to go on
// from it once imported.
func withDelegated(ids, all []string) []string {
	seen := map[string]bool{}
	var out []string
	var add func(id string)
	add = func(id string) {
		if seen[id] {
			return
		}
		seen[id] = true
		out = append(out, id)
		for _, s := range all {
			if contract.IsChildSession(id, s) {
				add(s)
			}
		}
	}
	for _, id := range ids {
		add(id)
	}
	return out
}

// namedWithDelegated is the sessions Export writes for the ids named.
func (d *db) namedWithDelegated(ctx context.Context, ids []string) ([]string, error) {
	all, err := d.Sessions(ctx)
	if err != nil {
		return nil, err
	}
	return withDelegated(ids, all), nil
}
