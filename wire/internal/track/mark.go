package track

import (
	"errors"
	"strconv"
	"strings"

	"github.com/batonrt/baton/contract"
)

// Mark is where a stream stands inside a model call: the attempt, and
// how many bytes each part of it has streamed. Deltas are not stored, so
// a stream resumed from the store after its deltas were dropped (the
// thread was closed and opened again) learns from the mark what its
// client has of the call, and sends only the rest when the call's turn
// completes.
type Mark struct {
	Attempt int
	// Thinking and Text are the bytes each part streamed, -1 when it
	// has not started.
	Thinking, Text int
	// Calls are the arguments bytes of each call streamed, in the order
	// the calls began.
	Calls []int
	// Earlier are the calls, begun before those Calls lists, that the
	// mark has no room for: a call with many parallel calls lists the
	// newest, and the earlier ones have most likely streamed whole.
	Earlier int
	// Sum fingerprints what the parts streamed, when HasSum: marks of
	// earlier releases carry none.
	Sum    uint32
	HasSum bool
	// Parts fingerprint each part apart (reasoning, text, then each call
	// Calls lists), when the mark has room for them: a resume that finds
	// the call's deltas gone compares each with the stored reply, which
	// the runtime may have mended (see Primer).
	Parts []uint32
}

// maxMark bounds an encoded mark: a call with more parallel calls than
// fit lists only the newest (Earlier).
const maxMark = 160

// Mark returns the stream's mark, encoded, or "" when it is not in a
// model call. It carries each part's fingerprint when they fit, else
// only the whole call's, and lists the newest calls that fit. Every
// streamed delta's SSE id carries it, so it works out how long each
// encoding would be and encodes only the one that fits: its cost grows
// with the calls begun, not with their square.
func (s *Stream) Mark() string {
	if !s.InTurn {
		return ""
	}
	n := digits(s.Attempt) + partLen(&s.Thinking) + partLen(&s.Text) + 1 + len36(s.sum())
	for _, i := range s.order {
		n += 1 + digits(s.calls[i].args.Len())
	}
	if n+s.partSumsLen() <= maxMark {
		return s.mark(0, true)
	}
	for earlier := 0; earlier <= len(s.order); earlier++ {
		m := n
		if earlier > 0 {
			m += 2 + digits(earlier)
		}
		if m <= maxMark {
			return s.mark(earlier, false)
		}
		if earlier < len(s.order) {
			n -= 1 + digits(s.calls[s.order[earlier]].args.Len())
		}
	}
	return ""
}

// mark encodes the stream's mark leaving out its earlier first calls,
// with each part's fingerprint when parts.
func (s *Stream) mark(earlier int, parts bool) string {
	var b strings.Builder
	b.Grow(maxMark)
	b.WriteString(strconv.Itoa(s.Attempt))
	for _, p := range []*Part{&s.Thinking, &s.Text} {
		b.WriteByte(',')
		if p.Sent {
			b.WriteString(strconv.Itoa(p.streamed.Len()))
		} else {
			b.WriteByte('-')
		}
	}
	if earlier > 0 {
		b.WriteString(",*")
		b.WriteString(strconv.Itoa(earlier))
	}
	for _, i := range s.order[earlier:] {
		b.WriteByte(',')
		b.WriteString(strconv.Itoa(s.calls[i].args.Len()))
	}
	b.WriteByte('~')
	b.WriteString(strconv.FormatUint(uint64(s.sum()), 36))
	if parts && earlier == 0 {
		s.eachPartSum(func(h sum) {
			b.WriteByte('.')
			b.WriteString(strconv.FormatUint(uint64(h), 36))
		})
	}
	return b.String()
}

// eachPartSum calls f with the sum of each of the call's parts, in the
// order a mark lists them.
func (s *Stream) eachPartSum(f func(sum)) {
	f(s.Thinking.sum)
	f(s.Text.sum)
	for _, i := range s.order {
		f(s.calls[i].sum)
	}
}

// partSumsLen is how many bytes the parts' sums take in a mark.
func (s *Stream) partSumsLen() int {
	n := 0
	s.eachPartSum(func(h sum) { n += 1 + len36(h) })
	return n
}

// sum fingerprints what the call's parts streamed.
func (s *Stream) sum() sum {
	var h sum
	s.eachPartSum(h.fold)
	return h
}

// partLen is how many bytes part p's field takes in a mark.
func partLen(p *Part) int {
	if !p.Sent {
		return 2
	}
	return 1 + digits(p.streamed.Len())
}

// digits is how many decimal digits n, not negative, takes.
func digits(n int) int {
	d := 1
	for ; n >= 10; n /= 10 {
		d++
	}
	return d
}

// len36 is how many base 36 digits h takes.
func len36(h sum) int {
	d := 1
	for ; h >= 36; h /= 36 {
		d++
	}
	return d
}

// Holds reports whether the stream stands where m says inside its model
// call: each part streamed as many bytes, the same ones when m has a sum.
// The attempt is not compared: a client that followed a call made again
// after its process died numbers it as it numbered the dead call (see
// Restart), the process that makes it from 0.
func (s *Stream) Holds(m Mark) bool {
	if !s.InTurn || m.Earlier+len(m.Calls) != len(s.order) {
		return false
	}
	for i, p := range []*Part{&s.Thinking, &s.Text} {
		n := -1
		if p.Sent {
			n = p.streamed.Len()
		}
		if n != []int{m.Thinking, m.Text}[i] {
			return false
		}
	}
	for i, idx := range s.order[m.Earlier:] {
		if s.calls[idx].args.Len() != m.Calls[i] {
			return false
		}
	}
	return !m.HasSum || sum(m.Sum) == s.sum()
}

// Restart opens again, for a client whose model call at seq died with
// the process that streamed it (its mark held nothing the stream has),
// the call under the attempt the client numbered it with and with
// nothing streamed: the encoder has taken the dead call's messages off
// the client, and the call made again streams into them afresh.
func (s *Stream) Restart(seq uint64, attempt int) {
	s.InTurn = false
	s.BeginTurn(seq)
	s.Attempt = attempt
}

// Adopt numbers the stream's attempts as the client's mark does, once
// the stream holds what the mark says (Holds).
func (s *Stream) Adopt(m Mark) { s.Attempt = m.Attempt }

var errMark = errors.New("track: malformed mark")

// ParseMark decodes what Stream.Mark encodes.
func ParseMark(s string) (Mark, error) {
	if len(s) > maxMark+20 {
		return Mark{}, errMark
	}
	var m Mark
	s, fp, ok := strings.Cut(s, "~")
	if !ok {
		return m.parse(s)
	}
	sums := strings.Split(fp, ".")
	for i, f := range sums {
		n, err := strconv.ParseUint(f, 36, 32)
		if err != nil {
			return Mark{}, errMark
		}
		if i == 0 {
			m.Sum, m.HasSum = uint32(n), true
			continue
		}
		m.Parts = append(m.Parts, uint32(n))
	}
	m, err := m.parse(s)
	if err != nil || m.Parts == nil {
		return m, err
	}
	if m.Earlier > 0 || len(m.Parts) != 2+len(m.Calls) {
		return Mark{}, errMark
	}
	return m, nil
}

func (m Mark) parse(s string) (Mark, error) {
	fields := strings.Split(s, ",")
	if len(fields) < 3 {
		return Mark{}, errMark
	}
	var err error
	if m.Attempt, err = count(fields[0], false); err != nil {
		return Mark{}, err
	}
	if m.Thinking, err = count(fields[1], true); err != nil {
		return Mark{}, err
	}
	if m.Text, err = count(fields[2], true); err != nil {
		return Mark{}, err
	}
	calls := fields[3:]
	if len(calls) > 0 && strings.HasPrefix(calls[0], "*") {
		if m.Earlier, err = count(calls[0][1:], false); err != nil || m.Earlier == 0 {
			return Mark{}, errMark
		}
		calls = calls[1:]
	}
	for _, f := range calls {
		n, err := count(f, false)
		if err != nil {
			return Mark{}, err
		}
		m.Calls = append(m.Calls, n)
	}
	return m, nil
}

func count(f string, unset bool) (int, error) {
	if unset && f == "-" {
		return -1, nil
	}
	n, err := strconv.ParseUint(f, 10, 31)
	if err != nil {
		return 0, errMark
	}
	return int(n), nil
}

// Deltas are deltas that bring a stream to m inside the model call whose
// deltas carry seq and whose reply is turn: the client's share of what
// the call streamed, cut from the stored reply, after a retry notice for
// each attempt before m's. Projected silently, they leave an encoder
// where the client's stream left off, so that the turn's completion
// sends only what the client lacks. A mark past what the turn holds (an
// attempt that failed streamed more) is cut to the turn.
func (m Mark) Deltas(seq uint64, turn contract.Turn) []contract.RunEvent {
	var out []contract.RunEvent
	next := func(kind contract.EventKind) *contract.RunEvent {
		out = append(out, contract.RunEvent{Kind: kind, Seq: seq, Delta: uint32(len(out) + 1)})
		return &out[len(out)-1]
	}
	for range min(m.Attempt, 64) {
		next(contract.EvModelRetry)
	}
	if m.Thinking >= 0 {
		next(contract.EvThinkingDelta).Text = prefix(ThinkingText(turn), m.Thinking)
	}
	if m.Text >= 0 {
		next(contract.EvTextDelta).Text = prefix(turn.Text(), m.Text)
	}
	calls := turn.Calls()
	for i := range m.Earlier + len(m.Calls) {
		if i >= len(calls) {
			break
		}
		n := len(calls[i].Arguments)
		if i >= m.Earlier {
			n = m.Calls[i-m.Earlier]
		}
		callDelta(next, i, calls[i], n)
	}
	return out
}

// callDelta appends, through next, the delta of call c at index that
// streamed n bytes of its arguments.
func callDelta(next func(contract.EventKind) *contract.RunEvent, index int, c contract.ToolCall, n int) {
	ev := next(contract.EvToolCallDelta)
	ev.Index, ev.Text = index, prefix(c.Arguments, n)
	ev.Call = &contract.ToolCall{ID: c.ID, Name: c.Name}
}

func prefix(s string, n int) string { return s[:min(n, len(s))] }
