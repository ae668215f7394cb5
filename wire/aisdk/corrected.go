package aisdk

import "github.com/batonrt/baton/contract"

// Correction is the baton field of the metadata a run's message ends
// with when the stream left the client holding other parts than the
// session stores: an attempt of a model call that broke after streaming,
// a part whose stored text does not go on from what streamed, or a call
// the stored turn does not hold (the runtime dropped or mended it). The
// protocol cannot take back a part, so the client replaces its message
// with Message, the run's message as the session holds it (what
// Messages re-projects), or, without one, reads the thread's messages
// again. A stream whose turn is stored as streamed sends none.
type Correction struct {
	Corrected bool       `json:"corrected"`
	Message   *UIMessage `json:"message,omitempty"`
	// runMessage says the stream's message is the run's own, which the
	// stored message can replace: not so for a message continuing the
	// run after the client sent one of its own (Continue).
	runMessage bool
}

// NeedsStored reports whether chunks end a message with a correction
// that lacks the stored message, which Correct puts in.
func NeedsStored(chunks []Chunk) bool {
	return pending(chunks) != nil
}

// Correct puts in the correction chunks end with the run's message as
// events, the session's from its start, hold it. A correction of a
// message that is not the run's own, or of a run events do not hold,
// stays without one, and the client reads the thread again.
func Correct(chunks []Chunk, chatID string, events []contract.RunEvent) {
	meta := pending(chunks)
	if meta == nil || !meta.Baton.runMessage {
		return
	}
	for _, m := range Messages(chatID, events) {
		if m.Role == "assistant" && m.ID == meta.RunID {
			plain := *meta
			plain.Baton = nil
			m.Metadata = plain
			meta.Baton.Message = &m
		}
	}
}

// pending returns the metadata of the chunk that carries a correction
// still without its message, nil when none does.
func pending(chunks []Chunk) *Metadata {
	for _, c := range chunks {
		m, ok := c.MessageMetadata.(Metadata)
		if ok && m.Baton != nil && m.Baton.Message == nil {
			return &m
		}
	}
	return nil
}

// correction returns the correction of the run's message ending now, nil
// when the stream gave the client what the session stores.
func (p *Projector) correction() *Correction {
	if !p.diverged {
		return nil
	}
	p.diverged = false
	return &Correction{Corrected: true, runMessage: p.msgID == p.t.RunID}
}

// attemptStreamed reports whether the model call's attempt in flight
// sent the client any part.
func (p *Projector) attemptStreamed() bool {
	return p.t.InTurn && (p.t.Thinking.Sent || p.t.Text.Sent || len(p.t.Calls()) > 0)
}

// diverges reports whether the attempt in flight streamed what turn, its
// stored reply, does not go on from: other reasoning or text, or a call
// the turn does not hold under the same id and name. Other arguments are
// not: the call's tool-input-available replaces its input.
func (p *Projector) diverges(turn contract.Turn) bool {
	if p.t.StreamedOtherText(turn) {
		return true
	}
	held := map[string]string{}
	for _, c := range turn.Calls() {
		held[c.ID] = c.Name
	}
	for _, c := range p.t.Calls() {
		if name, ok := held[c.ID]; !ok || name != c.Name {
			return true
		}
	}
	return false
}
