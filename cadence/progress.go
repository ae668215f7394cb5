package cadence

import (
	"fmt"
	"slices"

	"github.com/batonrt/baton/contract"
)

// The no_progress guard (revision 1 on) watches what tool calls bring
// back: calls in a row whose result repeats what the same call (tool and
// arguments) already brought back earlier in the run, or rounds of tool
// calls in a row with no new result, count as a stall. Unlike the repeat
// guard it sees through interleaving (A, B, A, B, ... with the same
// answers) and needs no two calls to be adjacent. At LoopGuard.Warn the model gets a reminder;
// at LoopGuard.Critical the run faults with kind loop.

// noteProgress folds a closed batch's results into the guard's state.
func (t *transition) noteProgress(batch []contract.PendingCall) {
	if t.rules.cfg.Revision < 1 || len(batch) == 0 {
		return
	}
	p := &t.s.Progress // the transition's own copy
	// The batch's new results are added at once, so the set shares all
	// but the runs they land in with the input snapshot's.
	var room [8]uint64
	added := t.newResults(p, batch, room[:0])
	p.Seen = p.Seen.WithHex(added...)
	if len(added) > 0 {
		p.StaleRounds = 0
	} else {
		p.StaleRounds++
	}
	if stall(*p) < t.rules.cfg.LoopGuard.Warn {
		p.Warned = false
	}
}

// newResults appends to added the hashes of the batch's results that p
// has not seen, counting the others as repeats. It is apart from
// noteProgress so that its frame is gone before the set is extended,
// deep in the caller's stack.
func (t *transition) newResults(p *contract.Progress, batch []contract.PendingCall, added []uint64) []uint64 {
	for i := range batch {
		r := batchResult(&batch[i])
		h := t.resultHash(&batch[i].Call, &r)
		if p.Seen.HasHex(h) || slices.Contains(added, h) {
			p.Repeats++
		} else {
			added = append(added, h)
			p.Repeats = 0
		}
	}
	return added
}

// stall is the worse of the two counts.
func stall(p contract.Progress) int { return max(p.Repeats, p.StaleRounds) }

// resultHash names what a call brought back: the call's signature (tool
// and compacted arguments), the error flag and the content. The guard's
// set holds it in base 16 (contract.SortedSet.WithHex).
func (t *transition) resultHash(c *contract.ToolCall, r *contract.ToolResult) uint64 {
	// FNV-1a 64 written out so the strings need no []byte copies; the
	// value is the one hash/fnv's New64a gives for the same bytes.
	h := uint64(14695981039346656037)
	add := func(s string) {
		for i := 0; i < len(s); i++ {
			h ^= uint64(s[i])
			h *= 1099511628211
		}
	}
	if spaceOutsideStrings(c.Arguments) || (t.s.Revision >= contract.RevisionLoopKeysSorted && outsideStrings(c.Arguments, isComma)) {
		add(t.signature(*c))
	} else {
		// The signature's bytes, without building it.
		add(c.Name)
		add(" ")
		add(c.Arguments)
	}
	add("\x00")
	if r.IsError {
		add("\x01")
	}
	add(r.Content)
	return h
}

// stalled faults the run when the stall reached the critical threshold.
func (t *transition) stalled() bool {
	p := t.s.Progress
	if stall(p) < t.rules.cfg.LoopGuard.Critical {
		return false
	}
	t.fault(contract.KindLoop, "no_progress: "+describeStall(p))
	return true
}

// remindIfStalled adds a reminder once per stall that reached the warning
// threshold.
func (t *transition) remindIfStalled() {
	p := t.s.Progress
	if stall(p) < t.rules.cfg.LoopGuard.Warn || p.Warned {
		return
	}
	t.s.Progress.Warned = true
	if t.s.Warned {
		// The repeat guard's reminder covers the same stall.
		return
	}
	text := "Reminder: " + describeStall(p) + ". Stop repeating yourself: try a different approach, or answer with what you have."
	t.appendTurn(contract.Turn{Role: contract.RoleUser, Mark: contract.MarkReminder, Blocks: []contract.Block{contract.TextBlock(text)}})
	t.publish(contract.RunEvent{Kind: contract.EvLoopWarning, Text: text})
}

func describeStall(p contract.Progress) string {
	if p.Repeats >= p.StaleRounds {
		return fmt.Sprintf("the last %d tool results repeated earlier ones", p.Repeats)
	}
	return fmt.Sprintf("the last %d rounds of tool calls brought no new result", p.StaleRounds)
}

// resetProgress starts the stall count over: new input from the host is
// progress the tools could not make. From revision 3 the repeat guard's
// window starts over too, so the model, newly instructed, is not faulted
// for a call it made before the input reached it.
func (t *transition) resetProgress() {
	if t.s.Progress.Repeats != 0 || t.s.Progress.StaleRounds != 0 || t.s.Progress.Warned {
		t.s.Progress.Repeats, t.s.Progress.StaleRounds, t.s.Progress.Warned = 0, 0, false
	}
	if t.s.Revision >= contract.RevisionSteeringFirst && (t.s.Recent != nil || t.s.Warned) {
		t.s.Recent, t.s.Warned = nil, false
	}
}
