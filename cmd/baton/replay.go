package main

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"

	"github.com/batonrt/baton/cadence"
	"github.com/batonrt/baton/contract"
	"github.com/batonrt/baton/store"
)

// replayReport is what replay --json writes.
type replayReport struct {
	Session string `json:"session"`
	// Steps counts every step verified: the session's own and those of
	// its delegated runs, at every depth.
	Steps int `json:"steps"`
	// SessionSteps counts the session's own steps, as 'baton sessions'
	// does; DelegatedRuns the delegated runs replayed with it.
	SessionSteps  int                 `json:"session_steps"`
	DelegatedRuns int                 `json:"delegated_runs,omitempty"`
	Verified      bool                `json:"verified"`
	Divergence    *cadence.Divergence `json:"divergence,omitempty"`
	Error         string              `json:"error,omitempty"`
}

func (a *app) replay(ctx context.Context, args []string) error {
	fs := a.newFlags("replay", "SESSION", "Fold a session's records through the rules again and check that every step\nproduces the recorded effects and re-encodes to the stored bytes, the steps of\nits delegated runs too: the count covers them all and says how many were the\nsession's own (the steps 'baton sessions' lists). Prints the first divergence\nand exits 1 when one differs.")
	pos, err := fs.parse(args, 1, 1)
	if err != nil {
		return err
	}
	st, _, err := fs.openExistingStore()
	if err != nil {
		return err
	}
	defer st.Close()
	c, err := verifySession(ctx, st, replayRules(), pos[0])
	if fs.json {
		out := replayReport{Session: pos[0], Steps: c.steps, SessionSteps: c.own, DelegatedRuns: c.runs, Verified: err == nil}
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
		fmt.Fprintf(a.stdout, "replay verified: %s, byte for byte%s\n", count(int64(c.steps), "step"), c.split())
	}
	return nil
}

// replayCount counts what a replay verified.
type replayCount struct {
	steps int // all steps, the delegated runs' too
	own   int // the session's own steps
	runs  int // delegated runs
}

// split says how a count that covers delegated runs divides.
func (c replayCount) split() string {
	if c.runs == 0 {
		return ""
	}
	return fmt.Sprintf(": %d of the session's own and %d of %s", c.own, c.steps-c.own, count(int64(c.runs), "delegated run"))
}

// verifySession replays a session under rules and then checks, node by
// node, that each replayed record encodes to exactly the stored node's
// bytes (a node's hash is the hash of its bytes, so equal hashes are equal
// bytes). It returns what it verified.
func verifySession(ctx context.Context, st store.Store, rules *cadence.Rules, id string) (replayCount, error) {
	h, err := readHead(ctx, st, id)
	if err != nil {
		return replayCount{}, err
	}
	var c replayCount
	err = verifyChain(ctx, st, rules, id, h, map[store.Hash]bool{}, &c)
	return c, err
}

// verifyChain verifies the chain ending at h, then every delegated run's
// chain linked into it, counting what it verified into c. A child is
// replayed under the session its parent's step names for it, which is
// its own even when it was recorded without a head.
func verifyChain(ctx context.Context, st store.Store, rules *cadence.Rules, id string, h store.Hash, done map[store.Hash]bool, c *replayCount) error {
	nodes, err := chainOf(ctx, st, h)
	if err != nil {
		return sessionErr(id, err)
	}
	names := make([][]string, len(nodes)) // the children each step names
	i := 0
	for f, err := range rules.Steps(cadence.InitialSnapshot(id), recordsOf(nodes)) {
		if err == nil {
			err = cadence.Compare(f.Record, f.Persisted)
		}
		if err != nil {
			return fmt.Errorf("replay %s: %w", id, err)
		}
		n := nodes[i]
		b, err := store.EncodeNode(store.Node{Parent: n.Parent, Links: n.Links, Record: f.Persisted})
		if err != nil {
			return fmt.Errorf("replay %s: step %d: %w", id, n.Record.Step, err)
		}
		if got := store.HashOf(b); got != n.Hash {
			return fmt.Errorf("replay %s: step %d re-encodes to node %s, stored %s", id, n.Record.Step, shortHash(got), shortHash(n.Hash))
		}
		names[i] = f.Effects[0].(*contract.Persist).Links
		c.steps++
		if len(done) == 0 {
			// No child is replayed before the session's own chain ends.
			c.own++
		}
		i++
	}
	for i, n := range nodes {
		for k, l := range n.Links {
			if done[l] {
				continue
			}
			done[l] = true
			c.runs++
			child := ""
			if len(names[i]) == len(n.Links) {
				child = names[i][k]
			} else if child, err = linkedSession(ctx, st, l); err != nil {
				return err
			}
			if err := verifyChain(ctx, st, rules, child, l, done, c); err != nil {
				return fmt.Errorf("replay %s: child linked at step %d: %w", id, n.Record.Step, err)
			}
		}
	}
	return nil
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
