package cadence

import "github.com/batonrt/baton/contract"

// spendChoice takes a tool choice that makes the model call a tool out
// of s once the run's model has called tools (revision 14 on). Such a
// choice made that reply a tool call; holding it for the calls after
// would leave the model no way to answer with the results. A model call
// that failed (a context overflow sent again after a summary) spends
// nothing.
func (t *transition) spendChoice(s *contract.Sampling) {
	if t.s.Revision >= contract.RevisionChoiceOnce && forcesCall(s.ToolChoice) && t.calledTools() {
		s.ToolChoice = contract.ToolChoiceAuto
	}
}

// forcesCall says a tool choice makes the model call a tool.
func forcesCall(c contract.ToolChoice) bool {
	_, named := c.Tool()
	return named || c == contract.ToolChoiceRequired
}

// calledTools says the run had a round of tool calls: the no-progress
// guard has seen its results, which a compaction does not take away.
func (t *transition) calledTools() bool {
	p := t.s.Progress
	return !p.Seen.IsZero() || p.Repeats > 0 || p.StaleRounds > 0
}
