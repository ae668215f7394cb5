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
	return b.String()
}

var errMark = errors.New("track: malformed mark")

// ParseMark decodes what Stream.Mark encodes.
func ParseMark(s string) (Mark, error) {
	if len(s) > maxMark+12 {
		return Mark{}, errMark
	}
	fields := strings.Split(s, ",")
	if len(fields) < 3 {
		return Mark{}, errMark
	}
	var m Mark
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
