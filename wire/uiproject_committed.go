package wire

import (
	"encoding/json"
	"fmt"
	"strings"

	"github.com/batonrt/baton/contract"
)

func (p *UIMessageProjector) committed(ev contract.RunEvent) []UIChunk {
	switch ev.Kind {
	case contract.EvRunStarted:
		p.runID, p.running, p.inTurn, p.stepOpen = ev.RunID, true, false, false
		clear(p.known)
		return []UIChunk{{Type: UIStart, MessageID: ev.RunID, MessageMetadata: UIRunMetadata{SessionID: p.sessionID, RunID: ev.RunID}}}
	case contract.EvTurnCompleted:
		return p.turnCompleted(ev)
	case contract.EvToolResult:
		return p.toolResult(ev)
	case contract.EvRunSettled:
		out := p.closeAll()
		p.running = false
		return append(out, UIChunk{Type: UIFinish, FinishReason: "stop", MessageMetadata: p.endMetadata(ev, contract.PhaseSettled)})
	case contract.EvRunFaulted:
		return p.runFaulted(ev)
	case contract.EvToolCall:
		// turn_completed already projected the call.
		return nil
	case contract.EvModelRetry:
		c, _ := uiData(ev)
		return append(p.abandonAttempt(), c)
	}
	if c, ok := uiData(ev); ok {
		return []UIChunk{c}
	}
	return nil
}

// turnCompleted closes what the deltas opened and sends in full what was
// not streamed; every call's input becomes available (or an input error
// when the model's arguments are not JSON).
func (p *UIMessageProjector) turnCompleted(ev contract.RunEvent) []UIChunk {
	if ev.Turn == nil || ev.Turn.Role != contract.RoleAssistant {
		return nil
	}
	out := p.beginTurn(p.prevSeq())
	out = append(out, p.closeThinking()...)
	if thinking := thinkingText(*ev.Turn); !p.thinkSent && thinking != "" {
		out = append(out,
			UIChunk{Type: UIReasoningStart, ID: p.reasoningID()},
			UIChunk{Type: UIReasoningDelta, ID: p.reasoningID(), Delta: thinking},
			UIChunk{Type: UIReasoningEnd, ID: p.reasoningID()})
	}
	if text := ev.Turn.Text(); !p.textSent && text != "" {
		out = append(out,
			UIChunk{Type: UITextStart, ID: p.textID()},
			UIChunk{Type: UITextDelta, ID: p.textID(), Delta: text})
		p.textOpen = true
	}
	out = append(out, p.closeText()...)
	kept := map[string]bool{}
	for _, c := range ev.Turn.Calls() {
		kept[c.ID] = true
		p.known[c.ID] = true
		out = append(out, callInput(c))
	}
	for _, i := range p.callOrder {
		if c := p.calls[i]; !kept[c.id] {
			out = append(out, UIChunk{Type: UIToolInputError, ToolCallID: c.id, ToolName: c.name, Input: c.args, ErrorText: "the model's turn did not keep this call"})
		}
	}
	p.inTurn = false
	return out
}

// prevSeq is the Seq a live turn's deltas carried: that of the newest
// committed event before the turn.
func (p *UIMessageProjector) prevSeq() uint64 {
	if p.inTurn {
		return p.turnSeq
	}
	return p.seqBefore
}

func callInput(c contract.ToolCall) UIChunk {
	args := strings.TrimSpace(c.Arguments)
	if args == "" {
		args = "{}"
	}
	if !json.Valid([]byte(args)) {
		return UIChunk{Type: UIToolInputError, ToolCallID: c.ID, ToolName: c.Name, Input: c.Arguments, ErrorText: "arguments are not valid JSON"}
	}
	return UIChunk{Type: UIToolInputAvailable, ToolCallID: c.ID, ToolName: c.Name, Input: json.RawMessage(args)}
}

// toolResult sends a tool's output. A call the client never saw (its turn
// came before this stream began) gets its input first, since the client
// refuses an output for a part it does not have.
func (p *UIMessageProjector) toolResult(ev contract.RunEvent) []UIChunk {
	if ev.Result == nil {
		return nil
	}
	r := ev.Result
	var out []UIChunk
	if !p.known[r.CallID] {
		call := contract.ToolCall{ID: r.CallID, Name: r.Name}
		if ev.Call != nil && ev.Call.ID == r.CallID {
			call = *ev.Call
		}
		p.known[r.CallID] = true
		out = append(out, callInput(call))
	}
	if r.IsError {
		msg := r.Content
		if msg == "" {
			msg = "tool failed"
		}
		return append(out, UIChunk{Type: UIToolOutputError, ToolCallID: r.CallID, ErrorText: msg})
	}
	content := r.Content
	return append(out, UIChunk{Type: UIToolOutputAvail, ToolCallID: r.CallID, Output: &content})
}

// runFaulted ends the message the way the AI SDK does: an abort chunk
// (after the metadata, since nothing follows an abort), or an error chunk
// and a finish whose reason is error.
func (p *UIMessageProjector) runFaulted(ev contract.RunEvent) []UIChunk {
	out := p.closeAll()
	p.running = false
	meta := p.endMetadata(ev, contract.PhaseFaulted)
	msg := faultMessage(ev)
	if ev.Err != nil && ev.Err.Kind == contract.KindAborted {
		if ev.Err.Message != "" {
			msg = ev.Err.Message
		}
		return append(out, UIChunk{Type: UIMessageMetadata, MessageMetadata: meta}, UIChunk{Type: UIAbort, Reason: msg})
	}
	return append(out, UIChunk{Type: UIError, ErrorText: msg}, UIChunk{Type: UIFinish, FinishReason: "error", MessageMetadata: meta})
}

func faultMessage(ev contract.RunEvent) string {
	switch {
	case ev.Text != "":
		return ev.Text
	case ev.Err != nil:
		return ev.Err.Error()
	}
	return "run faulted"
}

func (p *UIMessageProjector) endMetadata(ev contract.RunEvent, phase contract.Phase) UIRunMetadata {
	return UIRunMetadata{SessionID: p.sessionID, RunID: ev.RunID, Phase: string(phase), Usage: ev.Usage}
}

// uiData maps the events the UI message stream has no chunk for onto
// data parts. Parts that describe the run stay in the message and carry
// an id derived from the event, so a re-projection replaces rather than
// repeats them; progress notices are transient.
func uiData(ev contract.RunEvent) (UIChunk, bool) {
	seqID := func(prefix string) string { return fmt.Sprintf("%s-%d", prefix, ev.Seq) }
	switch ev.Kind {
	case contract.EvApprovalRequested:
		return UIChunk{Type: UIDataApprovalRequested, ID: seqID("approval"), Data: uiCallValue(ev.Call)}, true
	case contract.EvApprovalResolved:
		v := uiCallValue(ev.Call)
		v["approved"] = ev.Approved
		if ev.Scope != "" {
			v["scope"] = string(ev.Scope)
		}
		if ev.Text != "" {
			v["reason"] = ev.Text
		}
		return UIChunk{Type: UIDataApprovalResolved, ID: seqID("approval"), Data: v}, true
	case contract.EvSteeringApplied:
		return UIChunk{Type: UIDataSteeringApplied, ID: seqID("steer"), Data: map[string]any{"text": ev.Text}}, true
	case contract.EvFollowUpApplied:
		return UIChunk{Type: UIDataFollowUpApplied, ID: seqID("follow-up"), Data: map[string]any{"text": ev.Text}}, true
	case contract.EvCompaction:
		return UIChunk{Type: UIDataCompaction, ID: seqID("compaction"), Data: map[string]any{"text": ev.Text, "cut": ev.Index}}, true
	case contract.EvLoopWarning:
		return UIChunk{Type: UIDataLoopWarning, ID: seqID("loop"), Data: map[string]any{"text": ev.Text}}, true
	case contract.EvModelRetry:
		return UIChunk{Type: UIDataModelRetry, Data: map[string]any{"text": ev.Text}, Transient: true}, true
	case contract.EvToolStarted:
		return UIChunk{Type: UIDataToolStarted, Data: uiCallValue(ev.Call), Transient: true}, true
	case contract.EvLag:
		return UIChunk{Type: UIDataLag, Data: map[string]any{"missed": ev.Missed}, Transient: true}, true
	}
	return UIChunk{}, false
}

func uiCallValue(call *contract.ToolCall) map[string]any {
	if call == nil {
		return map[string]any{}
	}
	return map[string]any{"toolCallId": call.ID, "toolName": call.Name, "arguments": call.Arguments}
}
