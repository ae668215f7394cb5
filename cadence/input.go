package cadence

import (
	"github.com/batonrt/baton/contract"
)

// onHostInput handles what the host may send in any in-flight phase:
// steering, follow-ups, aborts, what other runs of the delegation tree
// allowed, and the run's own tools as a tool source changed them.
func (t *transition) onHostInput(where string) string {
	switch sig := t.sig.(type) {
	case contract.Steered:
		return t.onSteer(sig.Input)
	case contract.FollowUpQueued:
		return t.queue(contract.InputFollowUp, sig.Input)
	case contract.AbortRequested:
		return t.onAbort(sig)
	case contract.AllowanceShared:
		return t.onAllowanceShared(sig)
	case contract.ToolsChanged:
		return t.onToolsChanged(sig)
	}
	return string(t.sig.SignalKind()) + " does not fit a run " + where
}

func (t *transition) queue(kind contract.InputKind, input []contract.Turn) string {
	if reason := checkInput(input); reason != "" {
		return string(kind) + ": " + reason
	}
	q := contract.QueuedInput{Kind: kind, Turns: input, At: t.at}
	t.s.Queued = append(append([]contract.QueuedInput(nil), t.s.Queued...), q)
	return ""
}

// onSteer queues the input for the next model-call boundary; calls that
// have not started are skipped so it arrives as soon as running tools end.
func (t *transition) onSteer(input []contract.Turn) string {
	if reason := t.queue(contract.InputSteer, input); reason != "" {
		return reason
	}
	if len(t.s.Pending) > 0 && t.s.Abort == "" {
		t.skipUnstarted("skipped: steered")
		t.advance()
	}
	return ""
}

// onAbort stops the run now, or marks it to stop at the moment its mode
// names. Once the abort is decided nothing new is invoked or run.
func (t *transition) onAbort(sig contract.AbortRequested) string {
	switch sig.Mode {
	case contract.AbortNow, contract.AbortAfterReply, contract.AbortAfterTools:
	default:
		return "abort_requested: unknown mode " + quote(string(sig.Mode))
	}
	t.s.AbortReason = sig.Reason
	waitForReply := t.s.Phase == contract.PhaseAwaitingModel && sig.Mode != contract.AbortNow
	waitForTools := sig.Mode == contract.AbortAfterTools && t.s.Phase != contract.PhaseAwaitingModel
	waitForCompaction := t.s.Phase == contract.PhaseCompacting && sig.Mode != contract.AbortNow
	switch {
	case waitForReply, waitForCompaction:
		t.s.Abort = sig.Mode
	case waitForTools && t.anyStarted():
		t.s.Abort = sig.Mode
		t.skipUnstarted("aborted: " + abortMessage(sig.Reason))
	default:
		if t.s.Phase == contract.PhaseAwaitingModel || t.s.Phase == contract.PhaseCompacting {
			t.emit(&contract.CancelInFlight{Model: true})
		}
		t.fault(contract.KindAborted, abortMessage(sig.Reason))
	}
	return ""
}

func (t *transition) anyStarted() bool {
	for i := range t.s.Pending {
		if t.s.Pending[i].State == contract.CallStarted {
			return true
		}
	}
	return false
}

// abortOnResume ends a run whose abort was waiting for a reply, a summary or for
// running tools when the process stopped: that work died with the
// process, and re-sending it would start what the abort forbids.
func (t *transition) abortOnResume() bool {
	if t.s.Abort == "" {
		return false
	}
	t.fault(contract.KindAborted, abortMessage(t.s.AbortReason))
	return true
}
