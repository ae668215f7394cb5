package cadence

import (
	"slices"

	"github.com/batonrt/baton/contract"
)

// requestApproval puts a call that needs approval up for it, unless every
// key it carries is already allowlisted for the session.
func (t *transition) requestApproval(p *contract.PendingCall, index int) {
	p.Keys = t.recordedKeys(index, p.Tool.Name)
	keys := approvalKeys(*p)
	if t.allowlisted(keys) {
		return
	}
	p.State = contract.CallAwaitingApproval
	t.emit(&contract.RequestApproval{Call: p.Call, Tool: p.Tool, Keys: keys})
	t.publish(contract.RunEvent{Kind: contract.EvApprovalRequested, Call: &p.Call, Keys: keys})
}

// recordedKeys returns the keys the reply being handled recorded for its
// index-th call, as sorted tool:key entries, or nil when it recorded none.
func (t *transition) recordedKeys(index int, tool string) []string {
	reply, ok := t.sig.(contract.ModelReplied)
	if !ok {
		return nil
	}
	var out []string
	for _, ck := range reply.Keys {
		if ck.Call != index {
			continue
		}
		for _, k := range ck.Keys {
			out = append(out, tool+":"+k)
		}
	}
	slices.Sort(out)
	return slices.Compact(out)
}

// approvalKeys are the allowlist entries a call needs: its recorded keys,
// or its tool's name when it has none.
func approvalKeys(p contract.PendingCall) []string {
	if len(p.Keys) > 0 {
		return p.Keys
	}
	return []string{p.Tool.Name}
}

func (t *transition) allowlisted(keys []string) bool {
	for _, k := range keys {
		if _, found := slices.BinarySearch(t.s.Allowed, k); !found {
			return false
		}
	}
	return len(keys) > 0
}

// allow adds keys to the session's allowlist, kept sorted; other pending
// calls whose keys are now all allowed need no approval any more.
func (t *transition) allow(keys []string) {
	t.grant(keys)
	pending := t.pending()
	for i := range pending {
		p := &pending[i]
		if p.State == contract.CallAwaitingApproval && t.allowlisted(approvalKeys(*p)) {
			p.State = contract.CallQueued
			t.publish(contract.RunEvent{Kind: contract.EvApprovalResolved, Call: &p.Call, Approved: true, Scope: contract.ScopeSession})
		}
	}
}

// grant adds keys to the session's allowlist, kept sorted.
func (t *transition) grant(keys []string) {
	for _, k := range keys {
		if i, found := slices.BinarySearch(t.s.Allowed, k); !found {
			t.s.Allowed = slices.Insert(slices.Clone(t.s.Allowed), i, k)
		}
	}
}
