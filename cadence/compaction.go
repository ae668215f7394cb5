package cadence

import (
	"fmt"

	"github.com/batonrt/baton/compactor"
	"github.com/batonrt/baton/contract"
)

// stepCompacting handles a run waiting for a summary of its history.
func stepCompacting(t *transition) string {
	switch sig := t.sig.(type) {
	case contract.Compacted:
		return t.onCompacted(sig)
	case contract.CompactionFailed:
		t.onCompactionFailed(sig)
		return ""
	case contract.Resumed:
		if t.abortOnResume() {
			return ""
		}
		return t.recompact()
	}
	return t.onHostInput("compacting")
}

// pendingCut recomputes the cut the compact effect named: history has not
// changed since, so the same pure function gives the same answer.
func (t *transition) pendingCut() ([]contract.Turn, int, bool) {
	turns := t.s.History.Turns()
	cut, ok := compactor.FindCutPoint(turns, t.rules.cfg.Compaction.KeepRecent)
	return turns, cut, ok
}

func (t *transition) recompact() string {
	turns, cut, ok := t.pendingCut()
	if !ok {
		t.boundary()
		return ""
	}
	t.emit(&contract.Compact{Turns: summarised(turns[:cut]), Cut: cut})
	return ""
}

func (t *transition) onCompacted(sig contract.Compacted) string {
	turns, cut, ok := t.pendingCut()
	if !ok || sig.Cut != cut {
		return fmt.Sprintf("compacted: cut %d does not match the requested cut %d", sig.Cut, cut)
	}
	t.countSummary(sig.Usage)
	condensed := t.estimator().Condense(turns, cut, sig.Summary)
	if compactor.Shrinks(turns, condensed) {
		t.s.History = contract.HistoryOf(condensed...)
		t.afterCondense(turns, cut, len(condensed)-(len(turns)-cut))
		t.publish(contract.RunEvent{Kind: contract.EvCompaction, Text: sig.Summary, Index: cut})
	} else {
		t.publish(contract.RunEvent{Kind: contract.EvCompaction, Text: "skipped: the summary would not shrink the history", Index: 0})
	}
	t.s.CompactedAt = t.s.History.Len()
	t.resumeAfterCompaction()
	return ""
}

// onCompactionFailed falls back to dropping the oldest tool outputs.
func (t *transition) onCompactionFailed(sig contract.CompactionFailed) {
	t.countSummary(sig.Usage)
	turns, cut, ok := t.pendingCut()
	if ok {
		dropped := t.estimator().DropToolOutputs(turns, cut)
		if compactor.Shrinks(turns, dropped) {
			t.s.History = contract.HistoryOf(dropped...)
		}
	}
	t.s.CompactedAt = t.s.History.Len()
	t.publish(contract.RunEvent{Kind: contract.EvCompaction, Text: "fallback: dropped old tool outputs (" + sig.Reason + ")"})
	t.resumeAfterCompaction()
}

// resumeAfterCompaction continues at the boundary that asked for it; the
// boundary delivers steering after the attempt is recorded, so its turns
// cannot start a second compaction before the model is called.
func (t *transition) resumeAfterCompaction() {
	t.s.Phase = contract.PhaseAwaitingModel
	t.s.CompactedAt = t.s.History.Len()
	t.boundary()
}

// countSummary adds the tokens a summary call used to the run's and the
// session's usage; the call is not one of the run's model calls, which
// Usage.ModelCalls counts (the turn cap and the tool choice read them).
func (t *transition) countSummary(u contract.Usage) {
	if u == (contract.Usage{}) {
		return
	}
	u.ModelCalls, u.ToolCalls, u.WallNanos = 0, 0, 0
	t.s.RunUsage = t.s.RunUsage.Add(u)
	t.s.SessionUsage = t.s.SessionUsage.Add(u)
}
