package main

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"slices"

	"github.com/batonrt/baton/cadence"
	"github.com/batonrt/baton/contract"
	"github.com/batonrt/baton/store"
)

func (a *app) replay(ctx context.Context, args []string) error {
	fs := a.newFlags("replay", "SESSION", "Fold a session's records through the rules again and check that every step\nproduces the recorded effects and re-encodes to the stored bytes. Prints the\nfirst divergence and exits 1 when one differs.")
	pos, err := fs.parse(args, 1, 1)
	if err != nil {
		return err
	}
	st, _, err := fs.openExistingStore()
	if err != nil {
		return err
	}
	defer st.Close()
	steps, err := verifySession(ctx, st, replayRules(), pos[0])
	if fs.json {
		out := struct {
			Session    string              `json:"session"`
			Steps      int                 `json:"steps"`
			Verified   bool                `json:"verified"`
			Divergence *cadence.Divergence `json:"divergence,omitempty"`
			Error      string              `json:"error,omitempty"`
		}{Session: pos[0], Steps: steps, Verified: err == nil}
		var d *cadence.Divergence
		if errors.As(err, &d) {
			out.Divergence = d
		} else if err != nil {
			out.Error = err.Error()
		}
		if jerr := json.NewEncoder(a.stdout).Encode(out); jerr != nil {
			return jerr
		}
	}
	if err != nil {
		return err
	}
	if !fs.json {
		fmt.Fprintf(a.stdout, "replay verified: %d steps, byte for byte\n", steps)
	}
	return nil
}

// verifySession replays a session under rules and then checks, node by
// node, that each replayed record encodes to exactly the stored node's
// bytes (a node's hash is the hash of its bytes, so equal hashes are equal
// bytes). It returns the number of steps verified.
func verifySession(ctx context.Context, st store.Store, rules *cadence.Rules, id string) (int, error) {
	h, err := head(ctx, st, id)
	if err != nil {
		return 0, err
	}
	return verifyChain(ctx, st, rules, id, h, map[store.Hash]bool{})
}

// verifyChain verifies the chain ending at h, then every delegated run's
// chain linked into it; the count covers them all.
func verifyChain(ctx context.Context, st store.Store, rules *cadence.Rules, id string, h store.Hash, done map[store.Hash]bool) (int, error) {
	var nodes []store.Node
	for n, err := range st.Walk(ctx, h) {
		if err != nil {
			return 0, sessionErr(id, err)
		}
		nodes = append(nodes, n)
	}
	slices.Reverse(nodes)
	records := make([]contract.Record, len(nodes))
	for i, n := range nodes {
		records[i] = n.Record
	}
	i := 0
	for f, err := range rules.Steps(cadence.InitialSnapshot(id), records) {
		if err == nil {
			err = cadence.Compare(f.Record, f.Persisted)
		}
		if err != nil {
			return i, fmt.Errorf("replay %s: %w", id, err)
		}
		n := nodes[i]
		b, err := store.EncodeNode(store.Node{Parent: n.Parent, Links: n.Links, Record: f.Persisted})
		if err != nil {
			return i, fmt.Errorf("replay %s: step %d: %w", id, n.Record.Step, err)
		}
		if got := store.HashOf(b); got != n.Hash {
			return i, fmt.Errorf("replay %s: step %d re-encodes to node %s, stored %s", id, n.Record.Step, shortHash(got), shortHash(n.Hash))
		}
		i++
	}
	steps := len(nodes)
	for _, n := range nodes {
		for _, l := range n.Links {
			if done[l] {
				continue
			}
			done[l] = true
			child, err := linkedSession(ctx, st, l)
			if err != nil {
				return steps, err
			}
			k, err := verifyChain(ctx, st, rules, child, l, done)
			steps += k
			if err != nil {
				return steps, fmt.Errorf("replay %s: child linked at step %d: %w", id, n.Record.Step, err)
			}
		}
	}
	return steps, nil
}

// linkedSession names the session a linked chain's head belongs to.
func linkedSession(ctx context.Context, st store.Store, h store.Hash) (string, error) {
	ids, err := st.Sessions(ctx)
	if err != nil {
		return "", err
	}
	for _, id := range ids {
		if head, err := st.Head(ctx, id); err == nil && head == h {
			return id, nil
		}
	}
	return "chain " + shortHash(h), nil
}
