package cadence

import (
	"github.com/batonrt/baton/contract"
)

// excludeFailedRun marks every turn of the run that just failed as
// excluded, so later model calls leave it out, and appends one note that
// stays in view and says what happened. The turns stay in history and in
// the store; only what the model reads changes.
func (t *transition) excludeFailedRun(err *contract.RunError) {
	if !t.rules.cfg.ExcludesFailedRuns() {
		return
	}
	turns := t.s.History.Turns()
	from := min(max(t.s.RunFrom, 0), len(turns))
	for i := from; i < len(turns); i++ {
		if !turns[i].Excluded {
			turns[i].Excluded = true
			t.s.Excluded++
		}
	}
	t.s.History = contract.HistoryOf(turns...)
	note := "[The previous request ended with an error and its turns are left out of this conversation: " + err.Error() + "]"
	t.appendTurn(contract.Turn{Role: contract.RoleUser, Mark: contract.MarkRunFailed, Blocks: []contract.Block{contract.TextBlock(note)}})
}

// modelHistory is the history as the model should see it: without the
// turns of failed runs. With none excluded it is the history itself, so
// the request shares it and costs nothing.
func (t *transition) modelHistory() contract.History {
	if t.s.Excluded == 0 {
		return t.s.History
	}
	return contract.HistoryOf(visible(t.s.History.Turns())...)
}

// visible returns the turns that are not excluded.
func visible(turns []contract.Turn) []contract.Turn {
	out := make([]contract.Turn, 0, len(turns))
	for _, turn := range turns {
		if !turn.Excluded {
			out = append(out, turn)
		}
	}
	return out
}

// countExcluded recounts excluded turns after history was rebuilt.
func countExcluded(h contract.History) int {
	n := 0
	for _, turn := range h.Backward() {
		if turn.Excluded {
			n++
		}
	}
	return n
}

// systemPrompt is the agent's system prompt followed by the run's project
// instructions, each under a header naming its file.
func (t *transition) systemPrompt() string {
	sys := t.rules.cfg.System
	for _, in := range t.s.Instructions {
		if sys != "" {
			sys += "\n\n"
		}
		sys += "Instructions from " + in.Name + ":\n\n" + in.Text
	}
	return sys
}
