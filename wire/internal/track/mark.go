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
	// Sum fingerprints what the parts streamed, when HasSum: marks of
	// earlier releases carry none.
	Sum    uint32
	HasSum bool
}

// maxMark bounds an encoded mark: a call with more parallel calls than
// fit is not marked, and resumes as before marks existed.
const maxMark = 160

// Mark returns the stream's mark, encoded, or "" when it is not in a
// model call or the mark would be too long.
func (s *Stream) Mark() string {
	if !s.InTurn {
		return ""
	}
	var b strings.Builder
	b.WriteString(strconv.Itoa(s.Attempt))
	for _, p := range []*Part{&s.Thinking, &s.Text} {
		b.WriteByte(',')
		if p.Sent {
			b.WriteString(strconv.Itoa(p.streamed.Len()))
		} else {
			b.WriteByte('-')
		}
	}
	for _, i := range s.order {
		b.WriteByte(',')
		b.WriteString(strconv.Itoa(s.calls[i].args.Len()))
		if b.Len() > maxMark {
			return ""
		}
	}
	b.WriteByte('~')
	b.WriteString(strconv.FormatUint(uint64(s.sum()), 36))
	return b.String()
}

// sum fingerprints what the call's parts streamed.
func (s *Stream) sum() sum {
	parts := []sum{s.Thinking.sum, s.Text.sum}
	for _, i := range s.order {
		parts = append(parts, s.calls[i].sum)
	}
	return sums(parts...)
}

// Holds reports whether the stream stands where m says inside its model
// call: each part streamed as many bytes, the same ones when m has a sum.
// The attempt is not compared: a client that followed a call made again
// after its process died numbers its attempts on (see Superseded).
func (s *Stream) Holds(m Mark) bool {
	if !s.InTurn || len(m.Calls) != len(s.order) {
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
	for i, idx := range s.order {
		if s.calls[idx].args.Len() != m.Calls[i] {
			return false
		}
	}
	return !m.HasSum || sum(m.Sum) == s.sum()
}

// Superseded opens, for a client whose model call at seq died with the
// process that streamed it (its mark held nothing the stream has), the
// call made again as the attempt after the client's: it streams into
// messages of its own rather than onto the dead call's.
func (s *Stream) Superseded(seq uint64, attempt int) {
	s.InTurn = false
	s.BeginTurn(seq)
	s.Attempt = attempt + 1
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
	if s, fp, ok := strings.Cut(s, "~"); ok {
		n, err := strconv.ParseUint(fp, 36, 32)
		if err != nil {
			return Mark{}, errMark
		}
		m.Sum, m.HasSum = uint32(n), true
		return m.parse(s)
	}
	return m.parse(s)
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
	for _, f := range fields[3:] {
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
	for i, n := range m.Calls {
		if i >= len(calls) {
			break
		}
		c := calls[i]
		ev := next(contract.EvToolCallDelta)
		ev.Index, ev.Text = i, prefix(c.Arguments, n)
		ev.Call = &contract.ToolCall{ID: c.ID, Name: c.Name}
	}
	return out
}

func prefix(s string, n int) string { return s[:min(n, len(s))] }
