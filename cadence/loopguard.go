package cadence

import (
	"bytes"
	"encoding/json"
	"fmt"
	"unicode/utf8"

	"github.com/batonrt/baton/contract"
)

// recordLoop adds the calls to the loop guard's window and returns the
// worst repetition count it now sees and the pattern repeating.
func (t *transition) recordLoop(calls []contract.ToolCall) (int, string) {
	window := 2*t.rules.cfg.LoopGuard.Critical + 2
	recent := append([]string(nil), t.s.Recent...)
	for _, c := range calls {
		recent = append(recent, signature(c))
	}
	if len(recent) > window {
		recent = recent[len(recent)-window:]
	}
	t.s.Recent = recent
	count, pattern := loopCount(recent)
	if count < t.rules.cfg.LoopGuard.Warn {
		t.s.Warned = false
	}
	return count, pattern
}

// remindIfLooping adds the loop guard's reminder turn once per repetition
// that reached the warning threshold.
func (t *transition) remindIfLooping() {
	count, pattern := loopCount(t.s.Recent)
	if count < t.rules.cfg.LoopGuard.Warn || t.s.Warned {
		return
	}
	t.s.Warned = true
	text := fmt.Sprintf("Reminder: you have repeated %s %d times with no new result. Stop repeating it: change the arguments, try a different approach, or answer with what you have.", pattern, count)
	t.appendTurn(contract.Turn{Role: contract.RoleUser, Mark: contract.MarkReminder, Blocks: []contract.Block{contract.TextBlock(text)}})
	t.publish(contract.RunEvent{Kind: contract.EvLoopWarning, Text: text})
}

// signature identifies a call by tool and arguments, with the arguments
// compacted so whitespace does not hide a repeat.
func signature(c contract.ToolCall) string {
	buf := bytes.NewBuffer(make([]byte, 0, len(c.Name)+1+len(c.Arguments)))
	buf.WriteString(c.Name)
	buf.WriteByte(' ')
	// Compact leaves buf as it was when the arguments are not JSON.
	if json.Compact(buf, []byte(c.Arguments)) != nil {
		buf.WriteString(c.Arguments)
	}
	return buf.String()
}

// loopCount measures the repetition at the end of the window: the same
// call n times in a row, or two calls alternating for n rounds.
func loopCount(recent []string) (int, string) {
	n := len(recent)
	if n == 0 {
		return 0, ""
	}
	last := recent[n-1]
	same := 1
	for i := n - 2; i >= 0 && recent[i] == last; i-- {
		same++
	}
	if n < 2 || recent[n-2] == last {
		return same, describe(last)
	}
	alt := 2
	for i := n - 3; i >= 0 && recent[i] == recent[i+2]; i-- {
		alt++
	}
	if rounds := alt / 2; rounds > same {
		return rounds, describe(recent[n-2]) + " and " + describe(last) + " alternating"
	}
	return same, describe(last)
}

func describe(sig string) string {
	if len(sig) > 80 {
		// Cut at a character boundary: a split rune is invalid UTF-8 in
		// the turn the model reads and in the encoded snapshot.
		cut := 80
		for cut > 0 && !utf8.RuneStart(sig[cut]) {
			cut--
		}
		sig = sig[:cut] + "..."
	}
	return "the call " + sig
}
