package cadence

import (
	"fmt"

	"github.com/batonrt/baton/compactor"
	"github.com/batonrt/baton/contract"
)

// boundary is the model-call boundary: everything that must happen before
// the next invoke_model happens here, in this order: a waiting abort, the
// turn cap, the stall guard, compaction, queued steering, the loop guard's
// reminder, and finally the call itself. Steering and reminders land after
// compaction, so the model always reads them verbatim. From revision 3 the
// stall guard waits while steering is queued: the steer is delivered
// below and starts the stall count over.
func (t *transition) boundary() {
	if t.s.Abort != "" {
		t.fault(contract.KindAborted, abortMessage(t.s.AbortReason))
		return
	}
	if t.s.Turns >= t.rules.cfg.MaxTurns {
		t.fault(contract.KindMaxTurns, fmt.Sprintf("reached the cap of %d model calls", t.rules.cfg.MaxTurns))
		return
	}
	if !t.steeringFirst() && t.stalled() {
		return
	}
	if t.startCompaction() {
		return
	}
	t.deliverQueued(contract.InputSteer)
	t.remindIfLooping()
	t.remindIfStalled()
	t.invokeModel()
}

// invokeModel starts the run's next model call. The request is written
// into its effect's slot and the event is made by a function of its own,
// so neither takes room in the frames above a run's first model call,
// which a run in flight keeps on its stack.
func (t *transition) invokeModel() {
	t.s.Turns++
	t.s.Phase = contract.PhaseAwaitingModel
	if t.rules.cfg.Revision >= 1 {
		t.turnStarted()
	}
	m := slot(t.invokeRoom, &t.ninvoke)
	t.request(&m.Request)
	t.emit(m)
}

// turnStarted publishes turn_started.
//
//go:noinline
func (t *transition) turnStarted() {
	t.publish(contract.RunEvent{Kind: contract.EvTurnStarted, Round: t.s.Turns, MaxRounds: t.rules.cfg.MaxTurns})
}

// request writes the next model call's request into r.
func (t *transition) request(r *contract.ModelRequest) {
	cfg := t.rules.cfg
	*r = contract.ModelRequest{}
	r.Model = cfg.Model
	r.System = t.systemPrompt()
	r.History = t.modelHistory()
	r.Tools = t.toolList()
	r.MaxOutputTokens = cfg.MaxOutputTokens
	r.Thinking = cfg.Thinking
	r.Turn = t.s.Turns
	r.Sampling = cfg.Sampling
	t.spendChoice(&r.Sampling)
	r.Output = cfg.Output
}

// startCompaction emits compact when the policy says so and there is
// something to cut. From revision 13 the policy reads history with the
// queued steering this boundary delivers, as the call will carry it.
func (t *transition) startCompaction() bool {
	if t.compactsWithSteering() && t.hasQueued(contract.InputSteer) {
		return t.compactIfDue(t.withSteering())
	}
	return t.compactIfDue(t.s.History)
}

// compactIfDue emits compact when the policy finds due, the history the
// next model call carries, due and there is something to cut. It never
// tries twice on a history that has not grown.
func (t *transition) compactIfDue(due contract.History) bool {
	p := t.rules.cfg.Compaction
	if p.Disabled || t.s.History.Len() <= t.s.CompactedAt || !compactionDue(due, p) {
		return false
	}
	return t.compactNow()
}

// compactNow emits compact if history has a cut point.
func (t *transition) compactNow() bool {
	turns := t.s.History.Turns()
	cut, ok := compactor.FindCutPoint(turns, t.rules.cfg.Compaction.KeepRecent)
	t.s.CompactedAt = len(turns)
	if !ok {
		return false
	}
	t.s.Phase = contract.PhaseCompacting
	t.emit(&contract.Compact{Turns: summarised(turns[:cut]), Cut: cut})
	return true
}

// deliverQueued appends every queued input of the kind to history, in
// arrival order, and removes it from the queue.
func (t *transition) deliverQueued(kind contract.InputKind) bool {
	var keep []contract.QueuedInput
	delivered := false
	for _, q := range t.s.Queued {
		if q.Kind != kind {
			keep = append(keep, q)
			continue
		}
		delivered = true
		mark, ev := contract.MarkSteer, contract.EvSteeringApplied
		if kind == contract.InputFollowUp {
			mark, ev = contract.MarkFollowUp, contract.EvFollowUpApplied
		}
		for _, turn := range q.Turns {
			turn.Mark = mark
			t.appendInput(turn)
		}
		t.resetProgress()
		t.publish(contract.RunEvent{Kind: ev, Text: inputText(q.Turns), ClientIDs: clientIDs(q.Turns)})
	}
	if delivered {
		t.s.Queued = keep
	}
	return delivered
}

func (t *transition) hasQueued(kind contract.InputKind) bool {
	for _, q := range t.s.Queued {
		if q.Kind == kind {
			return true
		}
	}
	return false
}

func abortMessage(reason string) string {
	if reason == "" {
		return "run aborted"
	}
	return "run aborted: " + reason
}
