package cadence_test

import (
	"slices"
	"strings"
	"testing"

	"github.com/batonrt/baton/cadence"
	"github.com/batonrt/baton/cadence/cadencetest"
	"github.com/batonrt/baton/contract"
	"pgregory.net/rapid"
)

// keysOf is what a pending call needs allowlisted: its recorded tool:key
// entries, or its tool's name.
func keysOf(p contract.PendingCall) []string {
	if len(p.Keys) > 0 {
		return p.Keys
	}
	return []string{p.Tool.Name}
}

// wantKeys is what the reply recorded for its index-th call, as entries.
func wantKeys(r contract.ModelReplied, index int, tool string) []string {
	var out []string
	for _, ck := range r.Keys {
		if ck.Call == index {
			for _, k := range ck.Keys {
				out = append(out, tool+":"+k)
			}
		}
	}
	if len(out) == 0 {
		return []string{tool}
	}
	slices.Sort(out)
	return out
}

// TestAllowlistedKeysNeverAskAgain checks the allowlist against a model of
// it kept here: session approvals add the approved call's keys; a new call
// that needs approval asks exactly when one of its keys is not in the
// model; and an approval only lets other calls through whose keys are all
// in it. From revision 9 a child's end adds what the child allowed.
func TestAllowlistedKeysNeverAskAgain(t *testing.T) {
	rapid.Check(t, func(t *rapid.T) {
		cfg := cadencetest.Config().Draw(t, "config")
		// Long runs, so the allowlist grows and is tested many times.
		cfg.MaxTurns, cfg.LoopGuard = 64, contract.LoopGuard{Warn: 30, Critical: 60}
		rules := cadence.New(cfg)
		snap := cadence.InitialSnapshot("s")
		allowed := map[string]bool{}
		all := func(keys []string) bool {
			for _, k := range keys {
				if !allowed[k] {
					return false
				}
			}
			return true
		}
		for range rapid.IntRange(1, 150).Draw(t, "steps") {
			sig := cadencetest.Signal(cfg, snap).Draw(t, "signal")
			next, _, err := rules.Step(snap, sig)
			if err != nil {
				continue
			}
			switch sig := sig.(type) {
			case contract.ApprovalResolved:
				for _, p := range snap.Pending {
					if p.Call.ID == sig.CallID && sig.Approved && sig.Scope == contract.ScopeSession {
						for _, k := range keysOf(p) {
							allowed[k] = true
						}
					}
				}
				letThrough(t, snap, next, sig.CallID, all)
			case contract.DelegateSettled:
				// From revision 9 the parent keeps what its child allowed.
				if snap.Revision >= contract.RevisionAllowTree {
					for _, k := range sig.Allowed {
						allowed[k] = true
					}
				}
				letThrough(t, snap, next, sig.CallID, all)
			case contract.ModelReplied:
				calls := next.Pending
				for i, p := range calls {
					if !p.Tool.NeedsApproval || p.State == contract.CallDone {
						continue
					}
					keys := keysOf(p)
					if want := wantKeys(sig, i, p.Tool.Name); !slices.Equal(keys, want) {
						t.Fatalf("call %s keyed %v, the reply recorded %v", p.Call.ID, keys, want)
					}
					asked := p.State == contract.CallAwaitingApproval
					if asked == all(keys) {
						t.Fatalf("call %s with keys %v asked=%v, allowlist %v", p.Call.ID, keys, asked, strings.Join(next.Allowed, ","))
					}
				}
			}
			if got := next.Allowed; len(got) != len(allowed) {
				t.Fatalf("snapshot allowlist %v, model %v", got, allowed)
			}
			snap = next
		}
	})
}

// letThrough fails t when a call that awaited approval, other than the
// one the signal answered, left it with a key the model does not allow.
func letThrough(t *rapid.T, snap, next contract.RunSnapshot, answered string, all func([]string) bool) {
	for i, p := range snap.Pending {
		if p.State != contract.CallAwaitingApproval || p.Call.ID == answered || i >= len(next.Pending) {
			continue
		}
		if st := next.Pending[i].State; st != contract.CallAwaitingApproval && st != contract.CallDone && !all(keysOf(p)) {
			t.Fatalf("call %s with keys %v let through by another call's answer; allowed %v", p.Call.ID, keysOf(p), next.Allowed)
		}
	}
}
