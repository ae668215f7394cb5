package main

import (
	"context"
	"fmt"

	"github.com/batonrt/baton/contract"
	"github.com/batonrt/baton/store"
)

// refuseDelegated refuses to drive the session of a delegate call as a
// conversation of its own: its parent drives it, and the parent's record
// of the settled call links the child's chain at the head it had then,
// so moving that head would leave the parent's graph naming a stale
// child. Reading such a session (log, replay, export) stays allowed.
func refuseDelegated(ctx context.Context, st store.Store, id, storeArg string) error {
	parent, err := delegatedParent(ctx, st, id)
	if err != nil || parent == "" {
		return err
	}
	root := parent
	// A delegated run is at most the depth cap below the session that
	// started it; the bound also ends the walk on names that loop.
	for range contract.MaxDelegationDepthLimit {
		up, err := delegatedParent(ctx, st, root)
		if err != nil {
			return err
		}
		if up == "" {
			break
		}
		root = up
	}
	return fmt.Errorf("session %q is the run of a delegate call of session %q, which drives it; go on from the top: baton run%s --session %s \"...\"", id, parent, storeArg, shellArg(root))
}

// delegatedParent returns the stored session one of whose delegate calls
// id is the session of, or "" if there is none. Only a name ending
// "/STEP.INDEX" or beginning with a parent's digest can be one; a child
// whose parent the store does not hold has no graph to break.
func delegatedParent(ctx context.Context, st store.Store, id string) (string, error) {
	if !contract.MayBeChildSession(id) {
		return "", nil
	}
	ids, err := st.Sessions(ctx)
	if err != nil {
		return "", fmt.Errorf("session %q: %w", id, err)
	}
	for _, p := range ids {
		if p != id && contract.IsChildSession(p, id) {
			return p, nil
		}
	}
	return "", nil
}
