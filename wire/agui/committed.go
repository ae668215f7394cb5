package agui

import (
	"github.com/batonrt/baton/contract"
	"github.com/batonrt/baton/internal/redact"
	"github.com/batonrt/baton/wire/internal/track"
)

func (p *Projector) committed(ev contract.RunEvent) []Event {
	switch ev.Kind {
	case contract.EvRunStarted:
		return []Event{{Type: RunStarted, ThreadID: p.t.SessionID, RunID: ev.RunID}}
	case contract.EvTurnCompleted:
		return p.turnCompleted(ev)
	case contract.EvToolResult:
		return p.toolResult(ev)
	case contract.EvRunSettled:
		return p.runEnded(ev, Event{Type: RunFinished, ThreadID: p.t.SessionID, RunID: ev.RunID})
	case contract.EvRunFaulted:
		return p.runEnded(ev, runError(ev))
	case contract.EvToolCall:
		// turn_completed already projected the call.
		return nil
	case contract.EvSubflowStarted, contract.EvSubflowCompleted, contract.EvSubflowFailed:
		return []Event{p.step(ev)}
	}
	if c, ok := p.custom(ev); ok {
		return []Event{c}
	}
	return nil
}

// turnCompleted closes what the deltas opened, after sending what they
// did not carry, and sends in full what was not streamed. Every block of
// one assistant turn lands in one AG-UI assistant message: its text as
// the content, its calls as tool calls.
func (p *Projector) turnCompleted(ev contract.RunEvent) []Event {
	if ev.Turn == nil || ev.Turn.Role != contract.RoleAssistant {
		return nil
	}
	p.t.BeginTurn(p.t.CompletedSeq())
	p.diverged, p.broken = p.broken || p.diverges(*ev.Turn), false
	out := p.finishThinking(track.ThinkingText(*ev.Turn))
	out = append(out, p.finishText(ev.Turn.Text())...)
	streamed := map[string]bool{}
	for _, c := range p.t.Calls() {
		streamed[c.ID] = true
	}
	final := map[string]string{}
	for _, c := range ev.Turn.Calls() {
		final[c.ID] = c.Arguments
	}
	for _, c := range p.t.Calls() {
		if rest, ok := restOf(c.Args(), final[c.ID]); ok && rest != "" {
			out = append(out, Event{Type: ToolCallArgs, ToolCallID: c.ID, Delta: rest})
		}
		out = append(out, Event{Type: ToolCallEnd, ToolCallID: c.ID})
	}
	for _, c := range ev.Turn.Calls() {
		if streamed[c.ID] {
			continue
		}
		out = append(out, Event{Type: ToolCallStart, ToolCallID: c.ID, ToolCallName: c.Name, ParentMessageID: p.messageID()})
		if c.Arguments != "" {
			out = append(out, Event{Type: ToolCallArgs, ToolCallID: c.ID, Delta: c.Arguments})
		}
		out = append(out, Event{Type: ToolCallEnd, ToolCallID: c.ID})
	}
	p.t.EndTurn()
	return out
}

// diverges reports whether the attempt in flight streamed what turn,
// its stored reply, does not go on from: other reasoning or text, or a
// call turn does not hold or holds with other arguments.
func (p *Projector) diverges(turn contract.Turn) bool {
	if p.t.StreamedOtherText(turn) {
		return true
	}
	final := map[string]string{}
	for _, c := range turn.Calls() {
		final[c.ID] = c.Arguments
	}
	for _, c := range p.t.Calls() {
		args, held := final[c.ID]
		if _, ok := restOf(c.Args(), args); !held || !ok {
			return true
		}
	}
	return false
}

func restOf(streamed, final string) (string, bool) {
	if len(final) < len(streamed) || final[:len(streamed)] != streamed {
		return "", false
	}
	return final[len(streamed):], true
}

// finishThinking closes the reasoning message with what the deltas did
// not carry. A part that streamed nothing gets a whole message; one
// closed before its rest came gets the rest in a message of its own; one
// whose stored text differs from what streamed gets the stored text whole.
func (p *Projector) finishThinking(final string) []Event {
	rest, ok := p.t.Thinking.Rest(final)
	if p.t.Thinking.Open && ok {
		var out []Event
		if rest != "" {
			out = append(out, Event{Type: ReasoningMessageContent, MessageID: p.reasoningID(), Delta: rest})
		}
		return append(out, p.closeThinking()...)
	}
	out := p.closeThinking()
	id, text := wholeOrRest(p.reasoningID(), p.t.Thinking.Sent, final, rest, ok)
	if text == "" {
		return out
	}
	return append(out,
		Event{Type: ReasoningStart, MessageID: id},
		Event{Type: ReasoningMessageStart, MessageID: id, Role: "reasoning"},
		Event{Type: ReasoningMessageContent, MessageID: id, Delta: text},
		Event{Type: ReasoningMessageEnd, MessageID: id},
		Event{Type: ReasoningEnd, MessageID: id})
}

// finishText does for the text message what finishThinking does for the
// reasoning.
func (p *Projector) finishText(final string) []Event {
	rest, ok := p.t.Text.Rest(final)
	if p.t.Text.Open && ok {
		p.t.Text.Open = false
		var out []Event
		if rest != "" {
			out = append(out, Event{Type: TextMessageContent, MessageID: p.messageID(), Delta: rest})
		}
		return append(out, Event{Type: TextMessageEnd, MessageID: p.messageID()})
	}
	var out []Event
	if p.t.Text.Open {
		p.t.Text.Open = false
		out = append(out, Event{Type: TextMessageEnd, MessageID: p.messageID()})
	}
	id, text := wholeOrRest(p.messageID(), p.t.Text.Sent, final, rest, ok)
	if text == "" {
		return out
	}
	return append(out,
		Event{Type: TextMessageStart, MessageID: id, Role: "assistant"},
		Event{Type: TextMessageContent, MessageID: id, Delta: text},
		Event{Type: TextMessageEnd, MessageID: id})
}

// wholeOrRest picks the message that completes a part which could not be
// completed in place: its id and text ("" when nothing is missing).
func wholeOrRest(id string, sent bool, final, rest string, prefix bool) (string, string) {
	switch {
	case !sent:
		return id, final
	case prefix:
		return id + "-rest", rest
	}
	return id + "-final", final
}

func (p *Projector) toolResult(ev contract.RunEvent) []Event {
	if ev.Result == nil {
		return nil
	}
	content := ev.Result.Content
	out := []Event{{Type: ToolCallResult, MessageID: "t-" + ev.Result.CallID, ToolCallID: ev.Result.CallID, Content: &content, Role: "tool"}}
	if ev.Truncated {
		v := map[string]any{"toolCallId": ev.Result.CallID, "toolCallName": ev.Result.Name}
		out = append(out, Event{Type: Custom, Name: CustomToolResultTruncated, Value: v})
	}
	return out
}

func (p *Projector) runEnded(ev contract.RunEvent, last Event) []Event {
	p.broken = false
	out := append(p.closeAll(), p.finishSteps()...)
	p.steps = nil
	p.t.EndTurn()
	phase := contract.PhaseSettled
	switch {
	case ev.Kind == contract.EvRunFaulted && p.stoppedIn != "":
		phase = p.stoppedIn
	case ev.Kind == contract.EvRunFaulted:
		phase = contract.PhaseFaulted
	}
	out = append(out, Event{Type: StateSnapshot, Snapshot: runState{SessionID: p.t.SessionID, RunID: ev.RunID, Phase: string(phase), Usage: ev.Usage}})
	return append(out, last)
}

func runError(ev contract.RunEvent) Event {
	e := Event{Type: RunError, Message: ev.Text, Code: string(contract.KindInternal)}
	if ev.Err != nil {
		e.Code = string(ev.Err.Kind)
		switch {
		case ev.Err.Kind == contract.KindAborted && ev.Err.Message != "":
			e.Message = "stopped: " + ev.Err.Message
		default:
			// Said once, as a person reads it; Code names the kind.
			e.Message = ev.Err.Plain()
		}
	}
	if e.Message == "" {
		e.Message = "run faulted"
	}
	e.Message = redact.Error(e.Message)
	return e
}
