package conductor

import (
	"maps"
	"slices"

	"github.com/batonrt/baton/contract"
)

// shareAllowed offers the agent's allowlist, which its last step grew, to
// the runs of its delegation tree in flight beside it: its parent's and
// its running children's. Each takes what it lacks as AllowanceShared,
// and offers it on in turn, so an "always" given anywhere reaches the
// whole tree. Offered as tasks of their own once this turn is over
// (offer), never waited for: a child's loop never waits for its
// parent's. In turn (enqueue).
//
//go:noinline
func (a *Agent) shareAllowed() {
	allowed := a.state.Allowed
	if a.parent != nil {
		p := a.parent
		a.offer(p, func() { p.takeAllowed(allowed) })
	}
	if a.run == nil {
		return
	}
	var kids []*Agent
	for _, session := range slices.Sorted(maps.Keys(a.run.children)) {
		if k := a.run.children[session].running(); k != nil {
			kids = append(kids, k)
		}
	}
	a.offerInOrder(kids, allowed)
}

// offerInOrder offers allowed to kids one after another, in the order of
// their sessions: once one has taken it, in a turn of its own, or was
// closed, this agent offers it to the next. Each child stamps what it
// takes with the clock as it comes to it, and offers are taken on
// goroutines of their own (takeOffer), so offered all at once they
// would be stamped in any order. In turn.
func (a *Agent) offerInOrder(kids []*Agent, allowed []string) {
	if len(kids) == 0 {
		return
	}
	k, rest := kids[0], kids[1:]
	next := func() { a.takeOffer(&task{fn: func() { a.offerInOrder(rest, allowed) }}) }
	a.offers = append(a.offers, offer{to: k, fn: func() {
		k.takeAllowed(allowed)
		next()
	}, dropped: next})
}

// shareBegun offers each other what a delegate call's child, ag, which
// has just begun, and its parent allow. The call was handed out with the
// parent's allowlist of that moment, and the parent may have allowed more
// before the child began (a hook held the call, a worker was slow), when
// shareAllowed could not reach it; a child picked up again (Resume,
// Reopen) may lack what its parent allowed before a crash, and the parent
// what the child did. What either already has is not recorded again.
func (a *Agent) shareBegun(run *runState, ag *Agent) {
	a.enqueue(&task{run: run, fn: func() {
		allowed := a.state.Allowed
		a.offer(ag, func() { ag.takeAllowed(allowed) })
	}})
	ag.enqueue(&task{fn: func() {
		if ag.run != nil {
			ag.shareAllowed()
		}
	}})
}

// takeAllowed applies the keys the run in flight does not allow yet, when
// its rules take allowances from other runs (revision 10 on). In turn.
func (a *Agent) takeAllowed(keys []string) {
	if a.closed || a.failed != nil || a.run == nil || !a.state.Phase.InFlight() || a.state.Revision < contract.RevisionAllowRunning {
		return
	}
	var fresh []string
	for _, k := range keys {
		if _, found := slices.BinarySearch(a.state.Allowed, k); !found {
			fresh = append(fresh, k)
		}
	}
	if len(fresh) == 0 {
		return
	}
	if err := a.apply(contract.AllowanceShared{Keys: fresh, At: a.now()}); err != nil {
		a.log.Debug("conductor: allowance not taken", "err", err)
	}
}

// allowedAtBegin is what a delegate call's child begins allowing: what
// the call was handed out with and, from revision 10 on, what the parent
// has allowed since, as its published state shows it. The parent may
// have allowed more while a hook held the call; taken here, the child
// does not ask a person for it before shareBegun's offer arrives.
func (a *Agent) allowedAtBegin(handed []string) []string {
	a.mu.Lock()
	snap := a.durable()
	revision, allowed := snap.Revision, snap.Allowed
	a.mu.Unlock()
	if revision < contract.RevisionAllowRunning || len(allowed) == 0 {
		return handed
	}
	all := slices.Concat(handed, allowed)
	slices.Sort(all)
	return slices.Compact(all)
}
