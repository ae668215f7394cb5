package main

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"strconv"
	"strings"

	"github.com/batonrt/baton/store"
)

func (a *app) fork(ctx context.Context, args []string) error {
	fs := a.newFlags("fork", "SESSION NODE", "Start a new session whose history is SESSION's up to NODE: a hash prefix\n(at least 6 hex digits, see 'baton log --graph') or a step number.")
	as := fs.String("as", "", "the new session's id (default a new readable id)")
	pos, err := fs.parse(args, 2, 2)
	if err != nil {
		return err
	}
	id, ref := pos[0], pos[1]
	if err := checkNewID(*as); err != nil {
		return &usageError{fs: fs.FlagSet, msg: "fork: --as: " + err.Error()}
	}
	st, _, err := fs.openExistingStore()
	if err != nil {
		return err
	}
	defer st.Close()
	h, err := readHead(ctx, st, id)
	if err != nil {
		return err
	}
	node, err := findNode(ctx, st, id, h, ref)
	if err != nil {
		return err
	}
	newID := *as
	if newID == "" {
		newID = newSessionID()
	}
	if err := st.Fork(ctx, newID, node.Hash); errors.Is(err, store.ErrExists) {
		return fmt.Errorf("fork %s: session %q exists already; name another with --as", id, newID)
	} else if err != nil {
		return fmt.Errorf("fork %s: %w", id, err)
	}
	if fs.json {
		return json.NewEncoder(a.stdout).Encode(map[string]any{"session": newID, "from": id, "node": node.Hash.String(), "step": node.Record.Step})
	}
	fmt.Fprintf(a.stdout, "forked %s at step %d (%s) as %s\n", safeLine(id), node.Record.Step, shortHash(node.Hash), newID)
	fmt.Fprintf(a.stdout, "  baton log%s %s\n  baton run%s --session %s \"...\"\n", fs.storeArg(), shellArg(newID), fs.storeArg(), shellArg(newID))
	return nil
}

// findNode finds the node of the session's chain named by a step number
// or a hash prefix. A reference that names no node, however it is
// spelled, is the same error: it says how many steps the session has.
func findNode(ctx context.Context, st store.Store, id string, h store.Hash, ref string) (store.Node, error) {
	step, stepErr := strconv.ParseUint(ref, 10, 64)
	byStep := stepErr == nil && len(ref) < 6
	ref = strings.ToLower(ref)
	var steps uint64
	for n, err := range st.Walk(ctx, h) {
		if err != nil {
			return store.Node{}, sessionErr(id, err)
		}
		steps = max(steps, n.Record.Step)
		if (byStep && n.Record.Step == step) || (!byStep && len(ref) >= 6 && strings.HasPrefix(n.Hash.String(), ref)) {
			return n, nil
		}
	}
	return store.Node{}, fmt.Errorf("session %q has no node %q: give a step number from 1 to %d or at least 6 hex digits of a node's hash (see 'baton log --graph %s')", id, ref, steps, safeLine(id))
}
