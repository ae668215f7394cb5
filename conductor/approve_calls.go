package conductor

import (
	"context"
	"fmt"
	"slices"

	"github.com/batonrt/baton/contract"
)

// CallDecision is a decision on one call's approval request, for
// ApproveCalls.
type CallDecision struct {
	CallID   string
	Decision Decision
	// RunID and Turn, when set, say which call of the id the decision is
	// for: the one a model reply of that run and turn made (see
	// ApprovalRequest). Models reuse call ids (some number them call_0,
	// call_1 in every reply), so a decision given for an earlier run's or
	// turn's call is refused rather than taken by a later call that
	// shares its id. Empty, the decision is for whichever call of the id
	// waits now.
	RunID string
	Turn  int
}

// ApproveCalls decides several approval requests of the run at the
// subflow path (an empty path is this agent's own run) at once, as a
// person who answered them together. Every call must await approval and
// be named once, with a scope once (or empty) or session; otherwise
// nothing is decided and the error, matching ErrRejected, names the call. A decision that is the call's own (once,
// or a denial) is applied before any approval for the session, so an
// "always" on one call never decides another call the same decisions
// deny: one by one, an "always" on call_1 would allow call_2 for the
// session, and a denial of call_2 after it would come too late. A call
// that an approval for the session among them allowed already is
// approved by it, and its own approval for the session is not needed.
// With ctx done before the run at the path takes the decisions up,
// nothing is decided and the error matches ctx's; decisions taken up
// have their own result whatever ctx does meanwhile.
func (a *Agent) ApproveCalls(ctx context.Context, path []string, ds []CallDecision) error {
	for _, d := range ds {
		if err := unknownScope(d.Decision); err != nil {
			return fmt.Errorf("%w (call %q)", err, d.CallID)
		}
	}
	return a.atSubflow(ctx, path, func(ag *Agent) error {
		return ag.call(ctx, func() error {
			if ag.failed != nil {
				return ag.failed
			}
			if ag.run == nil {
				return ErrNoRun
			}
			if err := ag.awaitApproval(ds); err != nil {
				return err
			}
			return ag.decide(ds)
		})
	})
}

// awaitApproval checks that each decision is on a distinct call that
// awaits approval. In turn (enqueue).
func (a *Agent) awaitApproval(ds []CallDecision) error {
	seen := map[string]bool{}
	for _, d := range ds {
		if seen[d.CallID] {
			return fmt.Errorf("%w: call %q is decided twice", ErrRejected, d.CallID)
		}
		seen[d.CallID] = true
		if err := a.askedNow(d.CallID, d.RunID, d.Turn); err != nil {
			return err
		}
		if !a.awaitsApproval(d.CallID) {
			return fmt.Errorf("%w: call %q is not awaiting approval", ErrRejected, d.CallID)
		}
	}
	return nil
}

func (a *Agent) awaitsApproval(callID string) bool {
	for _, p := range a.state.Pending {
		if p.Call.ID == callID {
			return p.State == contract.CallAwaitingApproval
		}
	}
	return false
}

// decide applies decisions the calls' own first, then those for the
// session; an approval for the session of a call another one allowed
// meanwhile is left out, the call approved already. In turn (enqueue).
func (a *Agent) decide(ds []CallDecision) error {
	ordered := slices.Clone(ds)
	slices.SortStableFunc(ordered, func(x, y CallDecision) int {
		return boolOrder(forSession(x.Decision), forSession(y.Decision))
	})
	for _, d := range ordered {
		if a.run == nil {
			return fmt.Errorf("%w: the run ended before call %q was decided", ErrRejected, d.CallID)
		}
		if err := a.askedNow(d.CallID, d.RunID, d.Turn); err != nil {
			return err
		}
		if forSession(d.Decision) && !a.awaitsApproval(d.CallID) {
			continue
		}
		if err := a.applyInput(resolution(d.CallID, d.Decision, a.now())); err != nil {
			return fmt.Errorf("conductor: decide %q: %w", d.CallID, err)
		}
	}
	return nil
}

// forSession reports whether d approves for the session, which may
// decide other calls too.
func forSession(d Decision) bool {
	return d.Approved && d.Scope == contract.ScopeSession
}

func boolOrder(x, y bool) int {
	switch {
	case x == y:
		return 0
	case x:
		return 1
	}
	return -1
}
