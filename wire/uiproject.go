package wire

import (
	"fmt"

	"github.com/batonrt/baton/contract"
)

// UIMessageProjector projects one stream of baton events onto the AI
// SDK's UI message stream. A run is one assistant message (start ...
// finish) and each model call is one step of it: the step opens with the
// call's first delta (or its turn, re-projected from the store), holds
// the turn's reasoning, text and tool calls and the tools' outputs, and
// closes when the next call begins or the run ends. Part ids derive from
// the event data alone (the Seq the turn's deltas carry), so a live
// stream and a re-projection name a part the same way.
//
// The stream's closing `data: [DONE]` is the writer's job
// (SSEWriter.WriteUIDone), not the projector's.
//
// A projector is not safe for concurrent use; use one per stream.
type UIMessageProjector struct {
	sessionID string
	runID     string
	running   bool
	stepOpen  bool
	lastSeq   uint64
	// seqBefore is lastSeq before the event being projected.
	seqBefore uint64
	// known holds the tool calls the client has a part for.
	known map[string]bool

	// The turn being streamed.
	turnSeq   uint64
	inTurn    bool
	textOpen  bool
	textSent  bool
	thinkOpen bool
	thinkSent bool
	calls     map[int]*streamedCall
	callOrder []int
	// attempt counts retries of the model call, so a retried reply
	// streams into parts of its own.
	attempt int
}

type streamedCall struct {
	id, name, args string
}

// NewUIMessageProjector returns a projector for a stream of the session
// sessionID (the AI SDK's chat id).
func NewUIMessageProjector(sessionID string) *UIMessageProjector {
	return &UIMessageProjector{sessionID: sessionID, known: map[string]bool{}}
}

// InRun reports whether the projected stream is inside a run, and which.
func (p *UIMessageProjector) InRun() (runID string, ok bool) { return p.runID, p.running }

// Project returns the UI message chunks for one baton event, in order.
func (p *UIMessageProjector) Project(ev contract.RunEvent) []UIChunk {
	if ev.Kind == contract.EvSignalRejected {
		return nil
	}
	if p.sessionID == "" {
		p.sessionID = ev.SessionID
	}
	if isDelta(ev.Kind) {
		return p.delta(ev)
	}
	p.seqBefore = p.lastSeq
	if ev.Kind != contract.EvLag && ev.Seq > p.lastSeq {
		p.lastSeq = ev.Seq
	}
	return p.committed(ev)
}

func (p *UIMessageProjector) textID() string      { return p.partID("text") }
func (p *UIMessageProjector) reasoningID() string { return p.partID("reasoning") }

func (p *UIMessageProjector) partID(kind string) string {
	if p.attempt == 0 {
		return fmt.Sprintf("%s-%d", kind, p.turnSeq)
	}
	return fmt.Sprintf("%s-%d-retry%d", kind, p.turnSeq, p.attempt)
}

// beginTurn opens a step for a model call, closing the previous call's.
func (p *UIMessageProjector) beginTurn(seq uint64) []UIChunk {
	if p.inTurn {
		return nil
	}
	p.inTurn = true
	p.turnSeq, p.attempt = seq, 0
	p.textOpen, p.textSent, p.thinkOpen, p.thinkSent = false, false, false, false
	p.calls = map[int]*streamedCall{}
	p.callOrder = nil
	out := p.finishStep()
	p.stepOpen = true
	return append(out, UIChunk{Type: UIStartStep})
}

func (p *UIMessageProjector) finishStep() []UIChunk {
	if !p.stepOpen {
		return nil
	}
	p.stepOpen = false
	return []UIChunk{{Type: UIFinishStep}}
}

func (p *UIMessageProjector) delta(ev contract.RunEvent) []UIChunk {
	out := p.beginTurn(ev.Seq)
	switch ev.Kind {
	case contract.EvTextDelta:
		out = append(out, p.closeThinking()...)
		if !p.textOpen {
			p.textOpen, p.textSent = true, true
			out = append(out, UIChunk{Type: UITextStart, ID: p.textID()})
		}
		if ev.Text != "" {
			out = append(out, UIChunk{Type: UITextDelta, ID: p.textID(), Delta: ev.Text})
		}
		return out
	case contract.EvThinkingDelta:
		if !p.thinkOpen {
			p.thinkOpen, p.thinkSent = true, true
			out = append(out, UIChunk{Type: UIReasoningStart, ID: p.reasoningID()})
		}
		if ev.Text != "" {
			out = append(out, UIChunk{Type: UIReasoningDelta, ID: p.reasoningID(), Delta: ev.Text})
		}
		return out
	}
	return append(out, p.callDelta(ev)...)
}

func (p *UIMessageProjector) callDelta(ev contract.RunEvent) []UIChunk {
	out := p.closeThinking()
	c, started := p.calls[ev.Index]
	if !started {
		c = &streamedCall{}
		if ev.Call != nil {
			c.id, c.name = ev.Call.ID, ev.Call.Name
		}
		if c.id == "" {
			c.id = fmt.Sprintf("call-%d-%d", p.turnSeq, ev.Index)
		}
		p.calls[ev.Index] = c
		p.callOrder = append(p.callOrder, ev.Index)
		p.known[c.id] = true
		out = append(out, UIChunk{Type: UIToolInputStart, ToolCallID: c.id, ToolName: c.name})
	}
	if ev.Text != "" {
		c.args += ev.Text
		out = append(out, UIChunk{Type: UIToolInputDelta, ToolCallID: c.id, InputTextDelta: ev.Text})
	}
	return out
}

func (p *UIMessageProjector) closeThinking() []UIChunk {
	if !p.thinkOpen {
		return nil
	}
	p.thinkOpen = false
	return []UIChunk{{Type: UIReasoningEnd, ID: p.reasoningID()}}
}

func (p *UIMessageProjector) closeText() []UIChunk {
	if !p.textOpen {
		return nil
	}
	p.textOpen = false
	return []UIChunk{{Type: UITextEnd, ID: p.textID()}}
}

// abandonAttempt ends what a model call's broken attempt opened before
// the driver retries it: the protocol cannot take text back, so its parts
// are closed as they are, a half-streamed call becomes an input error, and
// the retry streams into new parts.
func (p *UIMessageProjector) abandonAttempt() []UIChunk {
	if !p.inTurn {
		return nil
	}
	out := append(p.closeThinking(), p.closeText()...)
	for _, i := range p.callOrder {
		c := p.calls[i]
		delete(p.known, c.id)
		out = append(out, UIChunk{Type: UIToolInputError, ToolCallID: c.id, ToolName: c.name, Input: c.args, ErrorText: "the model call was retried"})
	}
	p.textSent, p.thinkSent = false, false
	p.calls = map[int]*streamedCall{}
	p.callOrder = nil
	p.attempt++
	return out
}

// closeAll ends whatever the stream left open, for a run that ends
// mid-turn: a call whose input never completed becomes an input error, so
// the client's part does not stay streaming for ever.
func (p *UIMessageProjector) closeAll() []UIChunk {
	var out []UIChunk
	if p.inTurn {
		out = append(p.closeThinking(), p.closeText()...)
		for _, i := range p.callOrder {
			c := p.calls[i]
			out = append(out, UIChunk{Type: UIToolInputError, ToolCallID: c.id, ToolName: c.name, Input: c.args, ErrorText: "run ended before the call was complete"})
		}
		p.inTurn = false
	}
	return append(out, p.finishStep()...)
}
