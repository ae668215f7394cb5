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
			if snap.Phase.InFlight() && rapid.IntRange(0, 7).Draw(t, "share") == 0 {
				// Another run of the tree allowed what a waiting call
				// needs, or some of it.
				sig = contract.AllowanceShared{Keys: sharedKeys(t, snap), At: cadencetest.At(snap)}
			}
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
			case contract.AllowanceShared:
				// From revision 10 a run in flight keeps what another run
				// of its tree allowed; earlier revisions refuse it.
				if snap.Revision < contract.RevisionAllowRunning {
					t.Fatalf("revision %d took %v from another run", snap.Revision, sig.Keys)
				}
				for _, k := range sig.Keys {
					allowed[k] = true
				}
				letThrough(t, snap, next, "", all)
				for i, p := range next.Pending {
					if p.State == contract.CallAwaitingApproval && all(keysOf(p)) {
						t.Fatalf("call %d (%s) with keys %v still waits, all of them allowed: %v", i, p.Call.ID, keysOf(p), next.Allowed)
					}
				}
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
			if why := stuckOnApproval(next); why != "" {
				t.Fatalf("after %s: %s", sig.SignalKind(), why)
			}
			if got := next.Allowed; len(got) != len(allowed) {
				t.Fatalf("snapshot allowlist %v, model %v", got, allowed)
			}
			snap = next
		}
	})
}

// stuckOnApproval says why a run that waits for approval waits for
// nothing, or holds a call that may run and is not started: a call an
// allowance let through must run.
func stuckOnApproval(s contract.RunSnapshot) string {
	if s.Phase != contract.PhaseAwaitingApproval {
		return ""
	}
	asking := false
	for _, p := range s.Pending {
		switch p.State {
		case contract.CallAwaitingApproval:
			asking = true
		case contract.CallQueued:
			return "call " + p.Call.ID + " is queued while the run only waits for approval"
		}
	}
	if !asking {
		return "the run waits for approval and no call asks for it"
	}
	return ""
}

// sharedKeys draws what another run of the tree may have allowed: keys
// of the run's calls that wait for approval, one of them or all, and
// now and then a key none of them needs.
func sharedKeys(t *rapid.T, s contract.RunSnapshot) []string {
	var keys []string
	for _, p := range s.Pending {
		if p.State == contract.CallAwaitingApproval {
			keys = append(keys, keysOf(p)...)
		}
	}
	keys = append(keys, "elsewhere")
	if rapid.Bool().Draw(t, "all_keys") {
		return keys
	}
	return []string{rapid.SampledFrom(keys).Draw(t, "key")}
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
