package cadence

import (
	"fmt"

	"github.com/batonrt/baton/contract"
)

// retryOutput handles a final reply the host found not matching the
// output schema: it goes back to the model with the reason while retries
// last, then the run faults with kind output (from revision 4 also at the
// turn cap, where no retry can follow). It reports whether it
// handled the reply; an abort waiting for its moment wins.
func (t *transition) retryOutput(sig contract.ModelReplied) bool {
	out := t.rules.cfg.Output
	if out == nil || sig.OutputError == "" || t.s.Abort != "" {
		return false
	}
	if t.outputRetries() >= out.Retries() || t.atCap() {
		t.fault(contract.KindOutput, "final answer does not match the output schema "+quote(out.Name)+": "+sig.OutputError)
		return true
	}
	if t.countsRetries() {
		t.s.OutputRetries++
	}
	note := fmt.Sprintf("Your answer does not match the required JSON schema %q: %s. Reply again with only a JSON value that matches it.", out.Name, sig.OutputError)
	t.appendTurn(contract.Turn{Role: contract.RoleUser, Mark: contract.MarkOutputRetry, Blocks: []contract.Block{contract.TextBlock(note)}})
	t.boundary()
	return true
}

// outputRetries counts the current run's answers sent back so far: from
// revision 14 in the snapshot, before it from the notes in the run's
// history, which a summary may since have replaced.
func (t *transition) outputRetries() int {
	if t.countsRetries() {
		return int(t.s.OutputRetries)
	}
	n := 0
	h := t.s.History
	for _, turn := range h.Tail(max(h.Len()-t.s.RunFrom, 0)) {
		if turn.Mark == contract.MarkOutputRetry {
			n++
		}
	}
	return n
}
