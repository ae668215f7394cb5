package wire

import (
	"github.com/batonrt/baton/contract"
)

func (p *AGUIProjector) committed(ev contract.RunEvent) []AGUIEvent {
	switch ev.Kind {
	case contract.EvRunStarted:
		p.runID, p.running, p.inTurn, p.retries = ev.RunID, true, false, 0
		return []AGUIEvent{{Type: AGUIRunStarted, ThreadID: p.threadID, RunID: ev.RunID}}
	case contract.EvTurnCompleted:
		return p.turnCompleted(ev)
	case contract.EvToolResult:
		return p.toolResult(ev)
	case contract.EvRunSettled:
		return p.runEnded(ev, []AGUIEvent{{Type: AGUIRunFinished, ThreadID: p.threadID, RunID: ev.RunID}})
	case contract.EvRunFaulted:
		return p.runEnded(ev, []AGUIEvent{runError(ev)})
	case contract.EvToolCall:
		// turn_completed already projected the call.
		return nil
	}
	if c, ok := p.custom(ev); ok {
		return []AGUIEvent{c}
	}
	return nil
}

// turnCompleted closes what the deltas opened and sends in full what was
// not streamed. Every block of one assistant turn lands in one AG-UI
// assistant message: its text as the content, its calls as tool calls.
func (p *AGUIProjector) turnCompleted(ev contract.RunEvent) []AGUIEvent {
	if ev.Turn == nil || ev.Turn.Role != contract.RoleAssistant {
		return nil
	}
	p.beginTurn(p.prevSeq(ev))
	out := p.closeThinking()
	if thinking := thinkingText(*ev.Turn); !p.thinkSent && thinking != "" {
		out = append(out,
			AGUIEvent{Type: AGUIReasoningStart, MessageID: p.reasoningID()},
			AGUIEvent{Type: AGUIReasoningMessageStart, MessageID: p.reasoningID(), Role: "reasoning"},
			AGUIEvent{Type: AGUIReasoningMessageContent, MessageID: p.reasoningID(), Delta: thinking},
			AGUIEvent{Type: AGUIReasoningMessageEnd, MessageID: p.reasoningID()},
			AGUIEvent{Type: AGUIReasoningEnd, MessageID: p.reasoningID()})
	}
	if text := ev.Turn.Text(); !p.textSent && text != "" {
		out = append(out,
			AGUIEvent{Type: AGUITextMessageStart, MessageID: p.messageID(), Role: "assistant"},
			AGUIEvent{Type: AGUITextMessageContent, MessageID: p.messageID(), Delta: text})
		p.textOpen = true
	}
	streamed := map[string]bool{}
	for _, id := range p.calls {
		streamed[id] = true
	}
	if p.textOpen {
		out = append(out, AGUIEvent{Type: AGUITextMessageEnd, MessageID: p.messageID()})
		p.textOpen = false
	}
	for _, i := range p.callOrder {
		out = append(out, AGUIEvent{Type: AGUIToolCallEnd, ToolCallID: p.calls[i]})
	}
	for _, c := range ev.Turn.Calls() {
		if streamed[c.ID] {
			continue
		}
		out = append(out, AGUIEvent{Type: AGUIToolCallStart, ToolCallID: c.ID, ToolCallName: c.Name, ParentMessageID: p.messageID()})
		if c.Arguments != "" {
			out = append(out, AGUIEvent{Type: AGUIToolCallArgs, ToolCallID: c.ID, Delta: c.Arguments})
		}
		out = append(out, AGUIEvent{Type: AGUIToolCallEnd, ToolCallID: c.ID})
	}
	p.inTurn, p.retries = false, 0
	return out
}

// prevSeq is the Seq a live turn's deltas carried: that of the newest
// committed event before the turn.
func (p *AGUIProjector) prevSeq(ev contract.RunEvent) uint64 {
	if p.inTurn {
		return p.turnSeq
	}
	return p.seqBefore
}

func thinkingText(t contract.Turn) string {
	var s string
	for _, b := range t.Blocks {
		if b.Kind == contract.BlockThinking {
			s += b.Text
		}
	}
	return s
}

func (p *AGUIProjector) toolResult(ev contract.RunEvent) []AGUIEvent {
	if ev.Result == nil {
		return nil
	}
	content := ev.Result.Content
	return []AGUIEvent{{Type: AGUIToolCallResult, MessageID: "t-" + ev.Result.CallID, ToolCallID: ev.Result.CallID, Content: &content, Role: "tool"}}
}

func (p *AGUIProjector) runEnded(ev contract.RunEvent, last []AGUIEvent) []AGUIEvent {
	out := p.closeAll()
	phase := contract.PhaseSettled
	if ev.Kind == contract.EvRunFaulted {
		phase = contract.PhaseFaulted
	}
	out = append(out, AGUIEvent{Type: AGUIStateSnapshot, Snapshot: RunState{SessionID: p.threadID, RunID: ev.RunID, Phase: string(phase), Usage: ev.Usage}})
	p.running = false
	return append(out, last...)
}

func runError(ev contract.RunEvent) AGUIEvent {
	e := AGUIEvent{Type: AGUIRunError, Message: ev.Text, Code: string(contract.KindInternal)}
	if ev.Err != nil {
		e.Code = string(ev.Err.Kind)
		if e.Message == "" {
			e.Message = ev.Err.Error()
		}
	}
	if e.Message == "" {
		e.Message = "run faulted"
	}
	return e
}

// custom maps the events AG-UI has no type for onto CUSTOM events.
func (p *AGUIProjector) custom(ev contract.RunEvent) (AGUIEvent, bool) {
	c := AGUIEvent{Type: AGUICustom}
	switch ev.Kind {
	case contract.EvApprovalRequested:
		c.Name, c.Value = CustomApprovalRequested, callValue(ev.Call)
	case contract.EvApprovalResolved:
		v := callValue(ev.Call)
		v["approved"] = ev.Approved
		if ev.Scope != "" {
			v["scope"] = string(ev.Scope)
		}
		if ev.Text != "" {
			v["reason"] = ev.Text
		}
		c.Name, c.Value = CustomApprovalResolved, v
	case contract.EvToolStarted:
		c.Name, c.Value = CustomToolStarted, callValue(ev.Call)
	case contract.EvSteeringApplied:
		c.Name, c.Value = CustomSteeringApplied, map[string]any{"text": ev.Text}
	case contract.EvFollowUpApplied:
		c.Name, c.Value = CustomFollowUpApplied, map[string]any{"text": ev.Text}
	case contract.EvCompaction:
		c.Name, c.Value = CustomCompaction, map[string]any{"text": ev.Text, "cut": ev.Index}
	case contract.EvLoopWarning:
		c.Name, c.Value = CustomLoopWarning, map[string]any{"text": ev.Text}
	case contract.EvModelRetry:
		c.Name, c.Value = CustomModelRetry, map[string]any{"text": ev.Text}
	case contract.EvLag:
		c.Name, c.Value = CustomLag, map[string]any{"missed": ev.Missed}
	default:
		return c, false
	}
	return c, true
}

func callValue(call *contract.ToolCall) map[string]any {
	if call == nil {
		return map[string]any{}
	}
	return map[string]any{"toolCallId": call.ID, "toolCallName": call.Name, "arguments": call.Arguments}
}
