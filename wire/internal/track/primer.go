package track

import "github.com/batonrt/baton/contract"

// Differs names the parts of a model call whose stored reply does not go
// on from what a client has of them: the runtime mended the reply before
// storing it (repaired a call's arguments, turned text into a call), or
// the reply is that of the call made again after the process the client
// followed died.
// Calls is set when a call the client has matches none of the stored
// reply's.
type Differs struct{ Thinking, Text, Calls bool }

// Any reports whether a part differs: the client holds text the stored
// reply does not.
func (d Differs) Any() bool { return d.Thinking || d.Text || d.Calls }

// Primer is Deltas for a mark with each part's fingerprint (Parts): it
// brings a stream to where the client stands in the part by part, as far
// as the stored reply turn goes on from it. A part whose stored text does
// not start with the client's bytes is left out of the deltas' text and
// named in Differs, as the client holds text the session does not; so
// is a call of the client's that turn has not (a call the runtime
// dropped or rewrote, or the dead call's), and turn's calls that match
// none of the client's are sent whole. ok is false when m has no part
// fingerprints.
func (m Mark) Primer(seq uint64, turn contract.Turn) (out []contract.RunEvent, d Differs, ok bool) {
	if m.Parts == nil || len(m.Parts) != 2+len(m.Calls) {
		return nil, Differs{}, false
	}
	next := func(kind contract.EventKind) *contract.RunEvent {
		out = append(out, contract.RunEvent{Kind: kind, Seq: seq, Delta: uint32(len(out) + 1)})
		return &out[len(out)-1]
	}
	for range min(m.Attempt, 64) {
		next(contract.EvModelRetry)
	}
	if m.Thinking >= 0 {
		text, same := goesOn(ThinkingText(turn), m.Thinking, m.Parts[0])
		next(contract.EvThinkingDelta).Text, d.Thinking = text, !same
	}
	if m.Text >= 0 {
		text, same := goesOn(turn.Text(), m.Text, m.Parts[1])
		next(contract.EvTextDelta).Text, d.Text = text, !same
	}
	calls := turn.Calls()
	used := make([]bool, len(calls))
	for i, n := range m.Calls {
		j := matching(calls, used, n, sum(m.Parts[2+i]))
		if j < 0 {
			d.Calls = true
			continue
		}
		used[j] = true
		callDelta(next, j, calls[j], n)
	}
	return out, d, true
}

// matching returns the first of calls not used whose first n bytes of
// arguments, under its id and name, sum to h, or -1.
func matching(calls []contract.ToolCall, used []bool, n int, h sum) int {
	for j, c := range calls {
		if !used[j] && n <= len(c.Arguments) && callSum(c, n) == h {
			return j
		}
	}
	return -1
}

// goesOn returns the first n bytes of final and whether they are the
// bytes whose sum is h.
func goesOn(final string, n int, h uint32) (string, bool) {
	if n > len(final) {
		return "", false
	}
	var got sum
	got.add(final[:n])
	if got != sum(h) {
		return "", false
	}
	return final[:n], true
}

// callSum is the sum of a call that streamed the first n bytes of c's
// arguments (see Stream.Call).
func callSum(c contract.ToolCall, n int) sum {
	var h sum
	h.add(c.ID + "\x00" + c.Name + "\x00")
	h.add(c.Arguments[:n])
	return h
}
