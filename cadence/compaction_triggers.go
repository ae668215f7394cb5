package cadence

import (
	"github.com/batonrt/baton/compactor"
	"github.com/batonrt/baton/contract"
)

// compactionDue reports whether any of the policy's triggers fires: the
// token ratio, and the message and character counts when set.
func compactionDue(h contract.History, p contract.CompactionPolicy) bool {
	switch {
	case compactor.ShouldCompact(h.Tokens(), p):
		return true
	case p.MaxMessages > 0 && h.Len() >= p.MaxMessages:
		return true
	case p.MaxChars > 0 && h.Chars() >= p.MaxChars:
		return true
	}
	return false
}

// summarised is what a summary may read of the turns it replaces: not
// the turns of failed runs, which the model is not to see again.
func summarised(turns []contract.Turn) []contract.Turn {
	for _, turn := range turns {
		if turn.Excluded {
			return visible(turns)
		}
	}
	return turns
}

// afterCondense keeps the run's bookkeeping in step with a history whose
// first cut turns, turns[:cut], became head new ones: the run's first
// turn moves with the kept part, or to the start of it when the cut
// reached into the run, whose input turns with a client id it condensed
// are then kept aside (CondensedInput).
func (t *transition) afterCondense(turns []contract.Turn, cut, head int) {
	for _, turn := range turns[min(max(t.s.RunFrom, 0), cut):cut] {
		if turn.ClientID == "" {
			continue
		}
		kept := contract.UserText(turn.Text())
		kept.ClientID = turn.ClientID
		// A new slice: the snapshot before this step shares the old one.
		t.s.CondensedInput = append(t.s.CondensedInput[:len(t.s.CondensedInput):len(t.s.CondensedInput)], kept)
	}
	if t.s.RunFrom >= cut {
		t.s.RunFrom += head - cut
	} else {
		t.s.RunFrom = head
	}
	t.s.Excluded = countExcluded(t.s.History)
}

// steerBringsCompaction starts compaction for a model call sent again on
// resume when the steering it would carry brings history due. The call is
// then not sent again here: the boundary after the summary sends it and
// counts it, so the lost call gives back its count, and it delivers the
// steer after the summary, verbatim. With nothing to cut the attempt is
// recorded (CompactedAt) and the call goes out as it is.
func (t *transition) steerBringsCompaction() bool {
	if !t.hasQueued(contract.InputSteer) || !t.compactIfDue(t.withSteering()) {
		return false
	}
	t.s.Turns--
	return true
}

// withSteering is history as it would be with the queued steering
// delivered, each turn counted as delivery counts it.
func (t *transition) withSteering() contract.History {
	h := t.s.History
	for _, q := range t.s.Queued {
		if q.Kind != contract.InputSteer {
			continue
		}
		for _, turn := range q.Turns {
			if turn.Tokens <= 0 {
				turn.Tokens = t.estimator().Turn(turn)
			}
			h = h.Append(turn)
		}
	}
	return h
}
