package cadence

import (
	"slices"
	"strconv"

	"github.com/batonrt/baton/contract"
)

// sharesAllowances says a run in flight takes what other runs of its
// delegation tree allowed meanwhile (revision 10 on).
func (t *transition) sharesAllowances() bool {
	return t.s.Revision >= contract.RevisionAllowRunning
}

// onAllowanceShared keeps what another run of the delegation tree allowed
// for the session and approves the run's calls waiting on it, as an
// "always" given here would. A signal that adds nothing is refused, so
// the host may offer a run what it may already have and nothing is
// recorded.
func (t *transition) onAllowanceShared(sig contract.AllowanceShared) string {
	if !t.sharesAllowances() {
		return "allowance_shared: revision " + strconv.Itoa(t.s.Revision) + " takes no allowance from another run"
	}
	fresh := false
	for _, k := range sig.Keys {
		if k == "" {
			return "allowance_shared: an empty key"
		}
		if _, found := slices.BinarySearch(t.s.Allowed, k); !found {
			fresh = true
		}
	}
	if !fresh {
		return "allowance_shared: nothing that is not allowed already"
	}
	waiting := t.awaitingApproval()
	t.allow(sig.Keys)
	if t.awaitingApproval() != waiting {
		t.advance()
	}
	return ""
}

// awaitingApproval counts the pending calls that wait for a decision.
func (t *transition) awaitingApproval() int {
	n := 0
	for i := range t.s.Pending {
		if t.s.Pending[i].State == contract.CallAwaitingApproval {
			n++
		}
	}
	return n
}
