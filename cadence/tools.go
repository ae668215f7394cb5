package cadence

import (
	"strconv"

	"github.com/batonrt/baton/contract"
)

// stepAwaitingTools handles a run whose tool calls are being answered,
// by tools running or by approvals.
func stepAwaitingTools(t *transition) string {
	switch sig := t.sig.(type) {
	case contract.ToolStarted:
		return t.onToolStarted(sig)
	case contract.ToolSettled:
		return t.onToolSettled(&sig)
	case contract.ApprovalResolved:
		return t.onApproval(sig)
	case contract.DelegateSettled:
		return t.onDelegateSettled(sig)
	case contract.HumanAnswered:
		return t.onAnswer(sig)
	case contract.Resumed:
		if !t.abortOnResume() {
			t.resumeBatch()
		}
		return ""
	}
	return t.onHostInput("awaiting tools")
}

// findPending returns the index of the pending call with the id, or -1.
func (t *transition) findPending(id string) int {
	for i := range t.s.Pending {
		if t.s.Pending[i].Call.ID == id {
			return i
		}
	}
	return -1
}

func (t *transition) onToolStarted(sig contract.ToolStarted) string {
	i := t.findPending(sig.CallID)
	if i < 0 {
		return "tool_started: no pending call " + quote(sig.CallID)
	}
	if t.schedules() {
		return "tool_started: rules revision " + strconv.Itoa(t.s.Revision) + " records a call's start with its dispatch"
	}
	if t.s.Pending[i].State != contract.CallDispatched {
		return "tool_started: call " + quote(sig.CallID) + " is " + string(t.s.Pending[i].State) + ", not dispatched"
	}
	p := &t.pending()[i]
	p.State = contract.CallStarted
	t.publish(contract.RunEvent{Kind: contract.EvToolStarted, Call: &p.Call})
	return ""
}

// onToolSettled takes the signal by pointer: it runs deep in the
// caller's stack, and its frame sits under the batch's close.
func (t *transition) onToolSettled(sig *contract.ToolSettled) string {
	i := t.findPending(sig.CallID)
	if i < 0 {
		return "tool_settled: no pending call " + quote(sig.CallID)
	}
	if st := t.s.Pending[i].State; st != contract.CallDispatched && st != contract.CallStarted {
		return "tool_settled: call " + quote(sig.CallID) + " is " + string(st) + ", not running"
	}
	pending := t.pending()
	if sig.Arguments != "" {
		// Hooks rewrote what the call ran with; its result event says so.
		// The events of its start point at the call as it was.
		pending = t.pendingCopy()
		pending[i].Call.Arguments = sig.Arguments
	}
	p := &pending[i]
	t.s.RunUsage.ToolCalls++
	t.s.SessionUsage.ToolCalls++
	t.answerWith(p, sig.Outcome)
	p.Tokens = max(sig.Tokens, 0)
	t.advance()
	return ""
}

func (t *transition) onApproval(sig contract.ApprovalResolved) string {
	i := t.findPending(sig.CallID)
	if i < 0 {
		return "approval_resolved: no pending call " + quote(sig.CallID)
	}
	if t.s.Pending[i].State != contract.CallAwaitingApproval {
		return "approval_resolved: call " + quote(sig.CallID) + " is not awaiting approval"
	}
	p := &t.pending()[i]
	t.publish(contract.RunEvent{Kind: contract.EvApprovalResolved, Call: &p.Call, Approved: sig.Approved, Scope: sig.Scope, Text: sig.Reason})
	if !sig.Approved {
		msg := "error: the user denied this call"
		if sig.Reason != "" {
			msg += ": " + sig.Reason
		}
		t.answer(p, msg, true)
	} else {
		p.State = contract.CallQueued
		if sig.Scope == contract.ScopeSession {
			t.allow(approvalKeys(*p))
		}
	}
	t.advance()
	return ""
}

// resumeBatch picks a batch up after a restart: calls handed out but not
// started are handed out again; started calls with no outcome run again
// only when idempotent, and otherwise tell the model the truth; approvals
// and questions are asked again. Only a run of revision 0 or 1 hands a
// call out without starting it; from revision 3 such calls go back to
// the queue, so a resume that moves the run on leaves their start to the
// rules (ToolConcurrency, sequential tools) rather than to a conductor
// that no longer limits them.
func (t *transition) resumeBatch() {
	pending := t.pending()
	for i := range pending {
		p := &pending[i]
		switch {
		case p.State == contract.CallDispatched && t.s.Revision >= contract.RevisionSteeringFirst:
			p.State = contract.CallQueued
		case p.State == contract.CallDispatched, p.State == contract.CallStarted && p.Tool.Idempotent:
			t.handOut(p)
		case p.State == contract.CallStarted:
			t.answer(p, "error: indeterminate: interrupted while running; the call may or may not have taken effect", true)
		case p.State == contract.CallAwaitingApproval:
			t.emit(&contract.RequestApproval{Call: p.Call, Tool: p.Tool, Keys: approvalKeys(*p)})
		case p.State == contract.CallAwaitingHuman && p.Question != nil:
			t.emit(&contract.AskHuman{Call: p.Call, Question: *p.Question})
		}
	}
	t.advance()
}
