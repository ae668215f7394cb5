package main

import (
	"context"
	"errors"
	"fmt"
	"slices"
	"strings"

	"github.com/batonrt/baton/cadence"
	"github.com/batonrt/baton/contract"
	"github.com/batonrt/baton/store"
)

// A delegated run has a session of its own, linked into its parent's
// chain at the step that answered its call. Runs recorded before children
// had heads of their own are reachable only through that link, so the
// commands that read sessions find a child by its parent's records as
// well as by its head.

// delegateRun is a delegated run a session's records name.
type delegateRun struct {
	session string
	callID  string
	// step is the parent's step that answered the call and linked the
	// child's chain; 0 while the call runs.
	step uint64
	// head is the child's chain as linked; zero while the call runs or
	// when the link cannot be told apart from its siblings'.
	head store.Hash
}

// chainOf reads the chain ending at h, oldest first.
func chainOf(ctx context.Context, st store.Store, h store.Hash) ([]store.Node, error) {
	var nodes []store.Node
	for n, err := range st.Walk(ctx, h) {
		if err != nil {
			return nil, err
		}
		nodes = append(nodes, n)
	}
	slices.Reverse(nodes)
	if len(nodes) > 0 && nodes[0].Record.Step != 1 {
		return nil, fmt.Errorf("%w: the chain starts at step %d", store.ErrCorrupt, nodes[0].Record.Step)
	}
	return nodes, nil
}

// recordsOf returns the records of nodes.
func recordsOf(nodes []store.Node) []contract.Record {
	recs := make([]contract.Record, len(nodes))
	for i, n := range nodes {
		recs[i] = n.Record
	}
	return recs
}

// delegatesOf folds the chain of session id and returns its delegated
// runs in the order their calls were answered, then those of calls still
// running at its end. A step names the children it answers (the rules
// put them in its persist effect); its node links the chains of those
// that began, in the same order, so the two pair up when all began.
func delegatesOf(rules *cadence.Rules, id string, nodes []store.Node) ([]delegateRun, error) {
	var runs []delegateRun
	snap := cadence.InitialSnapshot(id)
	i := 0
	for f, err := range rules.Steps(snap, recordsOf(nodes)) {
		if err != nil {
			return runs, err
		}
		p := f.Effects[0].(*contract.Persist)
		links := nodes[i].Links
		for k, name := range p.Links {
			r := delegateRun{session: name, step: f.Record.Step, callID: callOf(f.Before, name)}
			if len(links) == len(p.Links) {
				r.head = links[k]
			}
			runs = append(runs, r)
		}
		snap = f.After
		i++
	}
	for _, pc := range snap.Pending {
		if pc.Subflow != "" && pc.State != contract.CallDone {
			runs = append(runs, delegateRun{session: pc.Subflow, callID: pc.Call.ID})
		}
	}
	return runs, nil
}

// callOf returns the id of the pending call whose child is session.
func callOf(s contract.RunSnapshot, session string) string {
	for _, pc := range s.Pending {
		if childStep(pc.Subflow) == childStep(session) {
			return pc.Call.ID
		}
	}
	return ""
}

// childStep is the "/STEP.INDEX" a child's name ends with, which stays
// the same when the parent's records are folded under a fork's id.
func childStep(session string) string {
	if i := strings.LastIndexByte(session, '/'); i >= 0 {
		return session[i:]
	}
	return session
}

// readHead returns the newest node of a session to read: its head, or,
// for a delegated run recorded without a head of its own, the chain its
// parent linked. Only commands that read use it: a child is driven by
// its parent, never as a session of its own.
func readHead(ctx context.Context, st store.Store, id string) (store.Hash, error) {
	h, err := st.Head(ctx, id)
	if err == nil || !errors.Is(err, store.ErrNotFound) || !contract.MayBeChildSession(id) {
		if err != nil {
			return h, sessionErr(id, err)
		}
		return h, nil
	}
	_, h, err = headlessChild(ctx, st, id)
	return h, err
}

// headlessChild finds a delegated run recorded without a head of its
// own: the stored session whose chain links it, and the newest node of
// its chain.
func headlessChild(ctx context.Context, st store.Store, id string) (root string, h store.Hash, err error) {
	roots, err := st.Sessions(ctx)
	if err != nil {
		return "", h, fmt.Errorf("session %q: %w", id, err)
	}
	for _, root := range roots {
		if root == id || !contract.IsDelegatedSession(root, id) {
			continue
		}
		rh, rerr := st.Head(ctx, root)
		if rerr != nil {
			continue
		}
		if found, ok := findLinked(ctx, st, root, rh, id); ok {
			return root, found, nil
		}
	}
	return "", h, sessionErr(id, store.ErrNotFound)
}

// findLinked looks for the chain of session want among the delegated
// runs below the chain of session id ending at h, descending only into
// children want may be below. A chain that cannot be read is passed
// over: the session asked for is then reported unknown, and reading the
// parent says what is damaged.
func findLinked(ctx context.Context, st store.Store, id string, h store.Hash, want string) (store.Hash, bool) {
	nodes, err := chainOf(ctx, st, h)
	if err != nil {
		return store.Hash{}, false
	}
	runs, _ := delegatesOf(replayRules(), id, nodes)
	for _, r := range runs {
		if r.head.IsZero() {
			continue
		}
		if r.session == want {
			return r.head, true
		}
		if contract.IsDelegatedSession(r.session, want) {
			if found, ok := findLinked(ctx, st, r.session, r.head, want); ok {
				return found, true
			}
		}
	}
	return store.Hash{}, false
}

// shellArg is a word of a command printed for the user to type back, a
// session id or a --store folder or URL: quoted for a POSIX shell unless
// it needs no quoting, and escaped for the terminal.
func shellArg(id string) string {
	// A leading "-" would read as a flag, a leading "~" as a home folder.
	plain := id != "" && !strings.HasPrefix(id, "-") && !strings.HasPrefix(id, "~")
	for _, c := range id {
		if !plainArgRune(c) {
			plain = false
			break
		}
	}
	if plain {
		return id
	}
	return safeLine("'" + strings.ReplaceAll(id, "'", `'\''`) + "'")
}

// plainArgRune reports runes no POSIX shell treats specially in a word.
func plainArgRune(c rune) bool {
	switch {
	case 'a' <= c && c <= 'z', 'A' <= c && c <= 'Z', '0' <= c && c <= '9':
		return true
	}
	return strings.ContainsRune("-_./:~@%+,=", c)
}
