package conductor

import (
	"context"
	"errors"
	"fmt"
	"sync"

	"github.com/batonrt/baton/contract"
	"github.com/batonrt/baton/dispatch"
)

// noApprover is the reason a call is denied when nobody can be asked.
const noApprover = "no approver is attached, so calls that need approval are denied by default"

// askApproval asks the Approver. Without one the call is denied at once;
// an approver that fails or panics denies it too; ErrApproveLater leaves
// the request for Agent.Approve.
func (a *Agent) askApproval(req ApprovalRequest) {
	run := a.run
	approver := a.deps.People.Approver
	if approver == nil {
		a.later(run, contract.ApprovalResolved{CallID: req.Call.ID, Scope: contract.ScopeOnce, Reason: noApprover, At: a.now()})
		return
	}
	ctx := run.asking(req.Call.ID)
	a.spawn(run, jobFunc(func() task {
		d, err := callApprover(ctx, approver, req)
		if errors.Is(err, ErrApproveLater) || ctx.Err() != nil {
			return task{}
		}
		if err == nil {
			err = unknownScope(d)
		}
		if err != nil {
			a.log.Warn("conductor: approver failed; the call is denied", "call", req.Call.ID, "err", err)
			d = Decision{Reason: "the approver failed: " + err.Error()}
		}
		run.handedIn.add(CallDecision{CallID: req.Call.ID, Decision: d, RunID: req.RunID, Turn: req.Turn})
		return task{fn: func() { a.applyHandedIn(run) }}
	}))
}

// handedIn holds the decisions approvers returned and the agent has yet
// to apply. Approvers asked about calls at once may return at once (a
// person allows one call's tool for the session and denies the next):
// applied as they come, the approval for the session would allow the
// denied call too, and the denial would be refused.
type handedIn struct {
	mu sync.Mutex
	ds []CallDecision
}

func (h *handedIn) add(d CallDecision) {
	h.mu.Lock()
	defer h.mu.Unlock()
	h.ds = append(h.ds, d)
}

func (h *handedIn) take() []CallDecision {
	h.mu.Lock()
	defer h.mu.Unlock()
	ds := h.ds
	h.ds = nil
	return ds
}

// applyHandedIn applies every decision the run's approvers have handed
// in, the calls' own before those for the session (see decide). A
// decision on a call decided meanwhile (Approve, a steer) is refused, as
// it would be alone, and so is one whose call's turn has passed (a
// steer skipped it and the next reply reused its id). In turn (enqueue).
func (a *Agent) applyHandedIn(run *runState) {
	ds := run.handedIn.take()
	for _, session := range []bool{false, true} {
		for _, d := range ds {
			if forSession(d.Decision) != session || a.run != run {
				continue
			}
			if session && !a.awaitsApproval(d.CallID) {
				continue // another approval for the session allowed it
			}
			err := a.askedNow(d.CallID, d.RunID, d.Turn)
			if err == nil {
				err = a.apply(resolution(d.CallID, d.Decision, a.now()))
			}
			if err != nil {
				a.log.Debug("conductor: decision refused", "call", d.CallID, "err", err)
			}
		}
	}
}

// callApprover runs the approver, turning a panic into an error.
func callApprover(ctx context.Context, approver Approver, req ApprovalRequest) (Decision, error) {
	return guarded("conductor: approver", func() (Decision, error) { return approver(ctx, req) })
}

// unknownScope refuses a decision of a scope the rules do not know:
// taken, it would approve the call once and be recorded as given.
func unknownScope(d Decision) error {
	switch d.Scope {
	case "", contract.ScopeOnce, contract.ScopeSession:
		return nil
	}
	return fmt.Errorf("%w: approval scope %q is neither once nor session", ErrRejected, d.Scope)
}

// resolution is the signal of a decision. Its reason is made valid UTF-8,
// as the store keeps it, since a denial's reason is the result the model
// is shown.
func resolution(callID string, d Decision, at contract.Timestamp) contract.ApprovalResolved {
	scope := d.Scope
	if scope == "" {
		scope = contract.ScopeOnce
	}
	return contract.ApprovalResolved{CallID: callID, Approved: d.Approved, Scope: scope, Reason: validText(d.Reason), At: at}
}

// withApprovalKeys records in a reply the approval keys of its calls to
// tools that need approval and derive keys from their arguments, so the
// reducer, and every replay, allowlists what the calls do without asking
// the tools again.
func withApprovalKeys(box *dispatch.ToolBox, reply contract.ModelReplied) contract.ModelReplied {
	i := -1 // the call's index among the reply's calls
	for _, b := range reply.Reply.Blocks {
		if b.Kind != contract.BlockToolCall || b.Call == nil {
			continue
		}
		i++
		call := b.Call
		tool, ok := box.Lookup(call.Name)
		if !ok || !tool.Descriptor().NeedsApproval {
			continue
		}
		keyer, ok := tool.(dispatch.ApprovalKeyer)
		if !ok {
			continue
		}
		keys := approvalKeys(keyer, call.Arguments)
		reply.Keys = append(reply.Keys, contract.CallKeys{Call: i, Keys: keys})
	}
	return reply
}

// approvalKeys asks the tool, and falls back to the exact arguments: a
// call whose effect cannot be named is allowlisted only as itself.
func approvalKeys(keyer dispatch.ApprovalKeyer, args string) (keys []string) {
	defer func() {
		if recover() != nil {
			keys = []string{validText(args)}
		}
	}()
	keys, err := keyer.ApprovalKeys([]byte(args))
	var out []string
	for _, k := range keys {
		if k != "" {
			out = append(out, validText(k))
		}
	}
	if err != nil || len(out) == 0 {
		return []string{validText(args)}
	}
	return out
}
