package main

import (
	"context"

	"github.com/batonrt/baton/contract"
	"github.com/batonrt/baton/store"
)

// delegationTree arranges the listing of sessions so that a delegated
// run's session stands under the session whose call ran it, or is left
// out.
type delegationTree struct {
	ctx     context.Context
	st      store.Store
	rows    map[string]sessionRow // the listed sessions by id
	damaged int                   // children linked but unreadable
}

// arrange returns rows without the sessions of delegated runs, or, with
// children set, with each under its parent, depth first, found through
// the parents' records, so a child recorded without a head is listed
// too; it also returns how many sessions it left out.
func (d *delegationTree) arrange(rows []sessionRow, children bool) ([]sessionRow, int) {
	for _, r := range rows {
		d.rows[r.ID] = r
	}
	parent := d.parents(rows)
	var out []sessionRow
	hidden := 0
	seen := map[string]bool{}
	var add func(r sessionRow, depth int)
	add = func(r sessionRow, depth int) {
		if seen[r.ID] {
			return
		}
		seen[r.ID] = true
		r.depth = depth
		out = append(out, r)
		for _, c := range r.children {
			if parent[c.session] == r.ID {
				add(d.child(r.ID, c), depth+1)
			}
		}
	}
	for _, r := range rows {
		if _, ok := parent[r.ID]; ok {
			if !children {
				hidden++
			}
			continue
		}
		if !children {
			out = append(out, r)
			continue
		}
		add(r, 0)
	}
	if !children {
		// Children without a head of their own are not rows, but are
		// sessions left out all the same.
		for c := range parent {
			if _, ok := d.rows[c]; !ok {
				hidden++
			}
		}
	}
	return out, hidden
}

// parents maps each delegated run's session to the listed session whose
// records name it: the one it is named as a child of when several do, as
// a fork's records name its original's children.
func (d *delegationTree) parents(rows []sessionRow) map[string]string {
	parent := map[string]string{}
	var visit func(id string, runs []delegateRun)
	visit = func(id string, runs []delegateRun) {
		for _, c := range runs {
			if p, ok := parent[c.session]; ok && (p == id || contract.IsChildSession(p, c.session) || !contract.IsChildSession(id, c.session)) {
				continue
			}
			parent[c.session] = id
			if r, ok := d.rows[c.session]; ok {
				visit(c.session, r.children)
			} else {
				visit(c.session, d.child(id, c).children)
			}
		}
	}
	for _, r := range rows {
		visit(r.ID, r.children)
	}
	return parent
}

// child returns the row of a delegated run's session: its own when it
// has a head, else read through the chain its parent linked.
func (d *delegationTree) child(parent string, c delegateRun) sessionRow {
	r, ok := d.rows[c.session]
	if !ok {
		var err error
		if c.head.IsZero() {
			return sessionRow{ID: c.session, Parent: parent, Status: "not started"}
		}
		if r, err = chainInfo(d.ctx, d.st, c.session, c.head); err != nil {
			d.damaged++
			r = sessionRow{ID: c.session, Error: err.Error()}
		}
		d.rows[c.session] = r
	}
	r.Parent = parent
	return r
}
