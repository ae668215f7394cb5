package cadence

import (
	"bytes"
	"encoding/json"
	"fmt"
	"strings"
	"unicode/utf8"

	"github.com/batonrt/baton/contract"
)

// recordLoop adds the batch's calls to the loop guard's window and
// returns the worst repetition it now sees.
func (t *transition) recordLoop(batch []contract.PendingCall) repetition {
	window := 2*t.rules.cfg.LoopGuard.Critical + 2
	// The new window in one allocation: the newest signatures kept,
	// then the batch's.
	kept := t.s.Recent
	if keep := max(window-len(batch), 0); len(kept) > keep {
		kept = kept[len(kept)-keep:]
	}
	recent := make([]string, 0, len(kept)+len(batch))
	recent = append(recent, kept...)
	for i := range batch {
		recent = append(recent, t.signature(batch[i].Call))
	}
	if len(recent) > window {
		recent = recent[len(recent)-window:]
	}
	t.s.Recent = recent
	rep := loopCount(recent)
	if rep.count < t.rules.cfg.LoopGuard.Warn {
		t.s.Warned = false
	}
	return rep
}

// remindIfLooping adds the loop guard's reminder turn once per repetition
// that reached the warning threshold.
func (t *transition) remindIfLooping() {
	rep := loopCount(t.s.Recent)
	if rep.count < t.rules.cfg.LoopGuard.Warn || t.s.Warned {
		return
	}
	t.s.Warned = true
	text := fmt.Sprintf("Reminder: you have repeated %s %d times with no new result. Stop repeating it: change the arguments, try a different approach, or answer with what you have.", rep.pattern(), rep.count)
	t.appendTurn(contract.Turn{Role: contract.RoleUser, Mark: contract.MarkReminder, Blocks: []contract.Block{contract.TextBlock(text)}})
	t.publish(contract.RunEvent{Kind: contract.EvLoopWarning, Text: text})
}

// signature is the call's signature as the run's revision reads it:
// from revision 14 with an object's keys in order (see keyedSignature).
func (t *transition) signature(c contract.ToolCall) string {
	if t.s.Revision >= contract.RevisionLoopKeysSorted && outsideStrings(c.Arguments, isComma) {
		if s, ok := keyedSignature(c); ok {
			return s
		}
	}
	return signature(c)
}

// signature identifies a call by tool and arguments, with the arguments
// compacted so whitespace does not hide a repeat.
func signature(c contract.ToolCall) string {
	if !spaceOutsideStrings(c.Arguments) {
		// Compacting would give the arguments back as they are (or
		// fail, which keeps them as they are too).
		return c.Name + " " + c.Arguments
	}
	buf := bytes.NewBuffer(make([]byte, 0, len(c.Name)+1+len(c.Arguments)))
	buf.WriteString(c.Name)
	buf.WriteByte(' ')
	// Compact leaves buf as it was when the arguments are not JSON.
	if json.Compact(buf, []byte(c.Arguments)) != nil {
		buf.WriteString(c.Arguments)
	}
	return buf.String()
}

// repetition is what loopCount found: count repeats of the call last,
// or count rounds of other and last alternating.
type repetition struct {
	count       int
	last, other string
	alternating bool
}

// pattern describes the repeating calls; it is only wanted when the
// guard speaks, so it is not built on every step.
func (r repetition) pattern() string {
	if r.alternating {
		return describe(r.other) + " and " + describe(r.last) + " alternating"
	}
	return describe(r.last)
}

// spaceOutsideStrings reports whether s, read as JSON, has white space
// outside its strings: the only bytes json.Compact removes.
func spaceOutsideStrings(s string) bool { return outsideStrings(s, isJSONSpace) }

func isComma(b byte) bool { return b == ',' }

// keyedSignature is signature with the arguments' objects written with
// their keys in order, so that their order does not hide a repeat; the
// numbers keep their text. Arguments that are not JSON have none. Only
// arguments with a comma outside their strings, which one key and
// value do not need, are read: most calls cost nothing more. Not
// inlined: what it decodes would take room in the frame of every step
// that closes a batch.
//
//go:noinline
func keyedSignature(c contract.ToolCall) (string, bool) {
	dec := json.NewDecoder(strings.NewReader(c.Arguments))
	dec.UseNumber()
	var v any
	if dec.Decode(&v) != nil || dec.More() {
		return "", false
	}
	var b bytes.Buffer
	b.WriteString(c.Name)
	b.WriteByte(' ')
	enc := json.NewEncoder(&b)
	enc.SetEscapeHTML(false)
	if enc.Encode(v) != nil {
		return "", false
	}
	return strings.TrimSuffix(b.String(), "\n"), true
}

// loopCount measures the repetition at the end of the window: the same
// call n times in a row, or two calls alternating for n rounds.
func loopCount(recent []string) repetition {
	n := len(recent)
	if n == 0 {
		return repetition{}
	}
	last := recent[n-1]
	same := 1
	for i := n - 2; i >= 0 && recent[i] == last; i-- {
		same++
	}
	if n < 2 || recent[n-2] == last {
		return repetition{count: same, last: last}
	}
	alt := 2
	for i := n - 3; i >= 0 && recent[i] == recent[i+2]; i-- {
		alt++
	}
	if rounds := alt / 2; rounds > same {
		return repetition{count: rounds, last: last, other: recent[n-2], alternating: true}
	}
	return repetition{count: same, last: last}
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
