package cadence

import (
	"github.com/batonrt/baton/contract"
)

// settle ends the run successfully.
func (t *transition) settle() {
	t.endRun(contract.PhaseSettled)
	u := t.s.RunUsage
	t.publish(contract.RunEvent{Kind: contract.EvRunSettled, Usage: &u})
}

// fault ends the run with an error. Any calls still pending are answered
// first, so history stays well formed.
func (t *transition) fault(kind contract.ErrorKind, message string) {
	t.answerPending("aborted: " + message)
	t.s.Err = &contract.RunError{Kind: kind, Message: message}
	t.endRun(contract.PhaseFaulted)
	t.excludeFailedRun(t.s.Err)
	u := t.s.RunUsage
	t.publish(contract.RunEvent{Kind: contract.EvRunFaulted, Err: t.s.Err, Usage: &u, Text: message})
}

func (t *transition) endRun(phase contract.Phase) {
	wall := int64(t.at - t.s.RunStartedAt)
	if wall < 0 {
		wall = 0
	}
	t.s.RunUsage.WallNanos = wall
	t.s.SessionUsage.WallNanos += wall
	t.s.Phase = phase
	t.reportDropped()
	t.s.Queued = nil
	t.s.Abort, t.s.AbortReason = "", ""
}

// reportDropped publishes an input_dropped event for each input still
// queued as the run ends: the host was told it was accepted, and it will
// never reach the model. A settling run has delivered its queue, so only
// a fault or an abort reaches here with input queued.
func (t *transition) reportDropped() {
	if !t.reportsDropped() {
		return
	}
	for _, q := range t.s.Queued {
		t.publish(contract.RunEvent{Kind: contract.EvInputDropped, Text: inputText(q.Turns), Input: q.Kind, ClientIDs: clientIDs(q.Turns)})
	}
}

// answerPending gives every unanswered pending call an error result with
// content, cancels the ones already handed out, and closes the batch.
func (t *transition) answerPending(content string) {
	if len(t.s.Pending) == 0 {
		return
	}
	var cancel []string
	pending := t.pending()
	for i := range pending {
		p := &pending[i]
		if p.State == contract.CallDone {
			continue
		}
		if p.State == contract.CallDispatched || p.State == contract.CallStarted {
			cancel = append(cancel, p.Call.ID)
			if p.Tool.Delegate != "" && p.Subflow != "" && t.endsChildren() {
				t.publish(contract.RunEvent{Kind: contract.EvSubflowFailed, Call: &p.Call, Text: p.Subflow})
			}
		}
		t.answer(p, content, true)
	}
	if len(cancel) > 0 {
		t.emit(&contract.CancelInFlight{CallIDs: cancel})
	}
	t.closeBatch()
}
