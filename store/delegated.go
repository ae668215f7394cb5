package store

import (
	"context"
	"strings"
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
			if delegatedFrom(id, s) {
				add(s)
			}
		}
	}
	for _, id := range ids {
		add(id)
	}
	return out
}

// delegatedFrom reports whether id names the session of a delegate call
// of parent, as the run rules name it (cadence's childSession): parent's
// id and "/STEP.INDEX", cut from the front to MaxSessionID bytes, on a
// rune boundary.
func delegatedFrom(parent, id string) bool {
	i := strings.LastIndexByte(id, '/')
	if i < 0 || !stepIndex(id[i+1:]) {
		return false
	}
	suffix := id[i:]
	if over := len(parent) + len(suffix) - MaxSessionID; over > 0 {
		parent = parent[over:]
		for len(parent) > 0 && parent[0]&0xC0 == 0x80 {
			parent = parent[1:]
		}
	}
	return id[:i] == parent
}

// stepIndex reports whether s is "STEP.INDEX", two decimal numbers.
func stepIndex(s string) bool {
	step, index, ok := strings.Cut(s, ".")
	return ok && digits(step) && digits(index)
}

func digits(s string) bool {
	for i := 0; i < len(s); i++ {
		if s[i] < '0' || s[i] > '9' {
			return false
		}
	}
	return s != ""
}

// namedWithDelegated is the sessions Export writes for the ids named.
func (d *db) namedWithDelegated(ctx context.Context, ids []string) ([]string, error) {
	all, err := d.Sessions(ctx)
	if err != nil {
		return nil, err
	}
	return withDelegated(ids, all), nil
}
