package wire

import (
	"fmt"
	"strconv"

	"github.com/batonrt/baton/contract"
)

// AGUIProjector projects one stream of baton events onto AG-UI. It keeps
// what a stream needs to open and close messages correctly: the run in
// flight, the open text and reasoning messages and the tool calls that
// were streamed. Live, deltas become content and turn_completed closes
// what they opened; re-projected from the store (no deltas), a
// turn_completed becomes whole messages. Message ids derive from the
// event data alone (the Seq the turn's deltas carry), so a live stream
// and a re-projection name a message the same way.
//
// A projector is not safe for concurrent use; use one per stream.
type AGUIProjector struct {
	threadID string
	runID    string
	running  bool
	lastSeq  uint64
	// seqBefore is lastSeq before the event being projected.
	seqBefore uint64

	// The turn being streamed.
	turnSeq   uint64
	inTurn    bool
	textOpen  bool
	textSent  bool
	thinkOpen bool
	thinkSent bool
	calls     map[int]string // streamed tool-call index -> call id
	callOrder []int
	// retries counts the model_retry notices of the turn: each retried
	// attempt streams into messages of its own, never onto the broken
	// attempt's partial ones.
	retries int
}

// NewAGUIProjector returns a projector for a stream of the session
// threadID (AG-UI's thread is baton's session).
func NewAGUIProjector(threadID string) *AGUIProjector {
	return &AGUIProjector{threadID: threadID}
}

// InRun reports whether the projected stream is inside a run, and which.
func (p *AGUIProjector) InRun() (runID string, ok bool) { return p.runID, p.running }

// Resume returns what a client reconnecting mid-run needs before the rest
// of the run: AG-UI streams open with RUN_STARTED, so a resumed stream
// whose run started earlier repeats it.
func (p *AGUIProjector) Resume() []AGUIEvent {
	if !p.running {
		return nil
	}
	return []AGUIEvent{{Type: AGUIRunStarted, ThreadID: p.threadID, RunID: p.runID, ID: strconv.FormatUint(p.lastSeq, 10)}}
}

// Project returns the AG-UI events for one baton event, in order.
func (p *AGUIProjector) Project(ev contract.RunEvent) []AGUIEvent {
	if ev.Kind == contract.EvSignalRejected {
		return nil
	}
	if p.threadID == "" {
		p.threadID = ev.SessionID
	}
	var out []AGUIEvent
	switch {
	case isDelta(ev.Kind):
		out = p.delta(ev)
	case ev.Kind == contract.EvModelRetry:
		out = p.retry(ev)
	default:
		p.seqBefore = p.lastSeq
		if ev.Kind != contract.EvLag && ev.Seq > p.lastSeq {
			p.lastSeq = ev.Seq
		}
		out = p.committed(ev)
	}
	if len(out) == 0 {
		return nil
	}
	ts := int64(ev.At) / 1e6
	for i := range out {
		out[i].Timestamp = ts
	}
	out[len(out)-1].ID = eventID(ev)
	return out
}

func isDelta(k contract.EventKind) bool {
	return k == contract.EvTextDelta || k == contract.EvThinkingDelta || k == contract.EvToolCallDelta
}

func eventID(ev contract.RunEvent) string {
	switch {
	case ev.Kind == contract.EvLag:
		return ""
	case isDelta(ev.Kind), ev.Kind == contract.EvModelRetry:
		return strconv.FormatUint(ev.Seq, 10) + "." + strconv.FormatUint(uint64(ev.Delta), 10)
	}
	return strconv.FormatUint(ev.Seq, 10)
}

func (p *AGUIProjector) messageID() string   { return "m" + p.turnID() }
func (p *AGUIProjector) reasoningID() string { return "r" + p.turnID() }

func (p *AGUIProjector) turnID() string {
	if p.retries == 0 {
		return strconv.FormatUint(p.turnSeq, 10)
	}
	return fmt.Sprintf("%d-retry%d", p.turnSeq, p.retries)
}

// retry closes what the broken attempt opened, so that the next attempt
// opens messages of its own, and passes the notice on.
func (p *AGUIProjector) retry(ev contract.RunEvent) []AGUIEvent {
	out := p.closeAll()
	p.retries++
	c, _ := p.custom(ev)
	return append(out, c)
}

func (p *AGUIProjector) beginTurn(seq uint64) {
	if p.inTurn {
		return
	}
	p.inTurn = true
	p.turnSeq = seq
	p.textOpen, p.textSent, p.thinkOpen, p.thinkSent = false, false, false, false
	p.calls = map[int]string{}
	p.callOrder = nil
}

func (p *AGUIProjector) delta(ev contract.RunEvent) []AGUIEvent {
	p.beginTurn(ev.Seq)
	switch ev.Kind {
	case contract.EvTextDelta:
		out := p.closeThinking()
		if !p.textOpen {
			p.textOpen, p.textSent = true, true
			out = append(out, AGUIEvent{Type: AGUITextMessageStart, MessageID: p.messageID(), Role: "assistant"})
		}
		if ev.Text != "" {
			out = append(out, AGUIEvent{Type: AGUITextMessageContent, MessageID: p.messageID(), Delta: ev.Text})
		}
		return out
	case contract.EvThinkingDelta:
		var out []AGUIEvent
		if !p.thinkOpen {
			p.thinkOpen, p.thinkSent = true, true
			out = append(out,
				AGUIEvent{Type: AGUIReasoningStart, MessageID: p.reasoningID()},
				AGUIEvent{Type: AGUIReasoningMessageStart, MessageID: p.reasoningID(), Role: "reasoning"})
		}
		if ev.Text != "" {
			out = append(out, AGUIEvent{Type: AGUIReasoningMessageContent, MessageID: p.reasoningID(), Delta: ev.Text})
		}
		return out
	}
	return p.callDelta(ev)
}

func (p *AGUIProjector) callDelta(ev contract.RunEvent) []AGUIEvent {
	out := p.closeThinking()
	id, started := p.calls[ev.Index]
	if !started {
		name := ""
		if ev.Call != nil {
			id, name = ev.Call.ID, ev.Call.Name
		}
		if id == "" {
			id = fmt.Sprintf("call-%d-%d", p.turnSeq, ev.Index)
		}
		p.calls[ev.Index] = id
		p.callOrder = append(p.callOrder, ev.Index)
		out = append(out, AGUIEvent{Type: AGUIToolCallStart, ToolCallID: id, ToolCallName: name, ParentMessageID: p.messageID()})
	}
	if ev.Text != "" {
		out = append(out, AGUIEvent{Type: AGUIToolCallArgs, ToolCallID: id, Delta: ev.Text})
	}
	return out
}

func (p *AGUIProjector) closeThinking() []AGUIEvent {
	if !p.thinkOpen {
		return nil
	}
	p.thinkOpen = false
	return []AGUIEvent{
		{Type: AGUIReasoningMessageEnd, MessageID: p.reasoningID()},
		{Type: AGUIReasoningEnd, MessageID: p.reasoningID()},
	}
}

// closeAll ends whatever the stream left open, for a run that ends
// mid-turn.
func (p *AGUIProjector) closeAll() []AGUIEvent {
	if !p.inTurn {
		return nil
	}
	out := p.closeThinking()
	if p.textOpen {
		out = append(out, AGUIEvent{Type: AGUITextMessageEnd, MessageID: p.messageID()})
	}
	for _, i := range p.callOrder {
		out = append(out, AGUIEvent{Type: AGUIToolCallEnd, ToolCallID: p.calls[i]})
	}
	p.inTurn = false
	return out
}
