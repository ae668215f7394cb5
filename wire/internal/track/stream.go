package track

import (
	"fmt"
	"strings"

	"github.com/batonrt/baton/contract"
)

// Stream is what one encoder knows of the stream it projects. It is not
// safe for concurrent use; an encoder owns one.
type Stream struct {
	SessionID string
	RunID     string
	// Running is set from run_started until the run ends.
	Running bool

	lastSeq   uint64
	seqBefore uint64

	// The model call being streamed.
	TurnSeq uint64
	InTurn  bool
	// Attempt counts retries of the model call, so that a retried reply
	// streams into messages of its own.
	Attempt  int
	Text     Part
	Thinking Part
	calls    map[int]*Call
	order    []int
}

// Call is a tool call the model streamed.
type Call struct {
	ID, Name string
	args     strings.Builder
	sum      sum
}

// Args is the arguments text streamed so far.
func (c *Call) Args() string { return c.args.String() }

// New returns the stream of a session; an empty id is taken from the
// first event.
func New(sessionID string) *Stream {
	return &Stream{SessionID: sessionID, calls: map[int]*Call{}}
}

// IsDelta reports whether k is a streaming delta: not stored, numbered
// after the newest committed event.
func IsDelta(k contract.EventKind) bool {
	return k == contract.EvTextDelta || k == contract.EvThinkingDelta || k == contract.EvToolCallDelta
}

// Saw takes the session id from the first event when New was given none.
func (s *Stream) Saw(ev contract.RunEvent) {
	if s.SessionID == "" {
		s.SessionID = ev.SessionID
	}
}

// Committed records a committed event before the encoder projects it.
func (s *Stream) Committed(ev contract.RunEvent) {
	s.seqBefore = s.lastSeq
	if ev.Kind != contract.EvLag && ev.Seq > s.lastSeq {
		s.lastSeq = ev.Seq
	}
	switch ev.Kind {
	case contract.EvRunStarted:
		s.RunID, s.Running, s.InTurn, s.Attempt = ev.RunID, true, false, 0
	case contract.EvRunSettled, contract.EvRunFaulted:
		s.Running = false
	}
}

// BeginTurn opens the model call whose deltas carry seq; it reports
// whether a call was opened (false when one is open already).
func (s *Stream) BeginTurn(seq uint64) bool {
	if s.InTurn {
		return false
	}
	s.InTurn, s.TurnSeq = true, seq
	s.resetParts()
	return true
}

// CompletedSeq is the Seq of the call a turn_completed (being projected)
// ends: that its deltas carried, or, re-projected without deltas, that of
// the newest committed event before it.
func (s *Stream) CompletedSeq() uint64 {
	if s.InTurn {
		return s.TurnSeq
	}
	return s.seqBefore
}

// EndTurn closes the model call.
func (s *Stream) EndTurn() { s.InTurn, s.Attempt = false, 0 }

// Retry starts a new attempt of the model call: what the broken attempt
// streamed is forgotten (the encoder has closed it).
func (s *Stream) Retry() {
	s.resetParts()
	s.Attempt++
}

// Call returns the streamed call at index, and whether ev is its first
// delta; a call whose delta carries no id is named after the turn and
// index.
func (s *Stream) Call(ev contract.RunEvent) (c *Call, first bool) {
	if c, ok := s.calls[ev.Index]; ok {
		return c, false
	}
	c = &Call{}
	if ev.Call != nil {
		c.ID, c.Name = ev.Call.ID, ev.Call.Name
	}
	if c.ID == "" {
		c.ID = fmt.Sprintf("call-%d-%d", s.TurnSeq, ev.Index)
	}
	// The call's id and name are part of what it streamed: a call made
	// again streams the same arguments under an id of its own, and a
	// client holding the dead call's id lacks all of the new one.
	c.sum.add(c.ID + "\x00" + c.Name + "\x00")
	s.calls[ev.Index] = c
	s.order = append(s.order, ev.Index)
	return c, true
}

// AppendArgs records arguments text a call streamed.
func (c *Call) AppendArgs(text string) {
	c.args.WriteString(text)
	c.sum.add(text)
}

// Calls are the streamed calls of the attempt, in the order they began.
func (s *Stream) Calls() []*Call {
	out := make([]*Call, 0, len(s.order))
	for _, i := range s.order {
		out = append(out, s.calls[i])
	}
	return out
}

// TurnID names the model call's attempt: its Seq, then the retry.
func (s *Stream) TurnID() string {
	if s.Attempt == 0 {
		return fmt.Sprint(s.TurnSeq)
	}
	return fmt.Sprintf("%d-retry%d", s.TurnSeq, s.Attempt)
}

func (s *Stream) resetParts() {
	s.Text.reset()
	s.Thinking.reset()
	clear(s.calls)
	s.order = s.order[:0]
}

// ThinkingText returns a turn's reasoning text.
func ThinkingText(t contract.Turn) string {
	var b strings.Builder
	for _, bl := range t.Blocks {
		if bl.Kind == contract.BlockThinking {
			b.WriteString(bl.Text)
		}
	}
	return b.String()
}
