package aisdk

import (
	"encoding/json"
	"strings"

	"github.com/batonrt/baton/contract"
	"github.com/batonrt/baton/internal/redact"
	"github.com/batonrt/baton/wire/internal/track"
)

func (p *Projector) committed(ev contract.RunEvent) []Chunk {
	switch ev.Kind {
	case contract.EvRunStarted:
		start := Chunk{Type: Start, MessageID: ev.RunID, MessageMetadata: Metadata{SessionID: p.t.SessionID, RunID: ev.RunID}}
		if p.chained {
			// The message the stream sends goes on (see Chain).
			start.MessageID, p.chained = "", false
		} else {
			p.msgID = ev.RunID
		}
		p.stepOpen, p.diverged, p.stop = false, false, ""
		clear(p.known)
		clear(p.asked)
		return []Chunk{start}
	case contract.EvTurnCompleted:
		return p.turnCompleted(ev)
	case contract.EvToolResult:
		return p.toolResult(ev)
	case contract.EvRunSettled:
		out := p.closeAll()
		return append(out, Chunk{Type: Finish, FinishReason: settledReason(p.stop), MessageMetadata: p.endMetadata(ev, contract.PhaseSettled)})
	case contract.EvRunFaulted:
		return p.runFaulted(ev)
	case contract.EvToolCall:
		// turn_completed already projected the call.
		return nil
	case contract.EvModelRetry:
		c, _ := data(ev)
		return append(p.abandonAttempt(), c)
	case contract.EvSubflowStarted, contract.EvSubflowCompleted, contract.EvSubflowFailed:
		return []Chunk{subflow(ev)}
	case contract.EvApprovalResolved:
		if ev.Call != nil && !ev.Approved {
			p.denied[ev.Call.ID] = true
		}
	case contract.EvApprovalRequested:
		var out []Chunk
		if ev.Call != nil && p.known[ev.Call.ID] {
			// The call's own part asks; the approval id is the call id.
			out = append(out, Chunk{Type: ToolApprovalRequest, ApprovalID: ev.Call.ID, ToolCallID: ev.Call.ID})
		}
		c, _ := data(ev)
		return append(out, c)
	}
	if c, ok := data(ev); ok {
		return []Chunk{c}
	}
	return nil
}

// turnCompleted closes what the deltas opened, after sending what they
// did not carry, and sends in full what was not streamed; every call's
// input becomes available (or an input error when the model's arguments
// are not JSON).
func (p *Projector) turnCompleted(ev contract.RunEvent) []Chunk {
	if ev.Turn == nil || ev.Turn.Role != contract.RoleAssistant {
		return nil
	}
	out := p.beginTurn(p.t.CompletedSeq())
	p.stop = ev.Stop
	p.diverged = p.diverged || p.diverges(*ev.Turn)
	out = append(out, p.finishPart(&p.t.Thinking, track.ThinkingText(*ev.Turn), p.reasoningID(), ReasoningStart, ReasoningDelta, ReasoningEnd)...)
	out = append(out, p.finishPart(&p.t.Text, ev.Turn.Text(), p.textID(), TextStart, TextDelta, TextEnd)...)
	kept := map[string]bool{}
	for _, c := range ev.Turn.Calls() {
		kept[c.ID] = true
		p.known[c.ID] = true
		out = append(out, callInput(c))
	}
	for _, c := range p.t.Calls() {
		if !kept[c.ID] {
			out = append(out, Chunk{Type: ToolInputError, ToolCallID: c.ID, ToolName: c.Name, Input: c.Args(), ErrorText: "the model's turn did not keep this call"})
		}
	}
	p.t.EndTurn()
	return out
}

// finishPart closes a streamed part with what its deltas did not carry. A
// part that streamed nothing comes whole; one closed before its rest came
// gets the rest in a part of its own; one whose stored text differs from
// what streamed gets the stored text whole.
func (p *Projector) finishPart(part *track.Part, final, id, start, delta, end string) []Chunk {
	rest, ok := part.Rest(final)
	if part.Open && ok {
		part.Open = false
		var out []Chunk
		if rest != "" {
			out = append(out, Chunk{Type: delta, ID: id, Delta: rest})
		}
		return append(out, Chunk{Type: end, ID: id})
	}
	var out []Chunk
	if part.Open {
		part.Open = false
		out = append(out, Chunk{Type: end, ID: id})
	}
	switch {
	case !part.Sent:
		rest = final
	case ok:
		id += "-rest"
	default:
		id, rest = id+"-final", final
	}
	if rest == "" {
		return out
	}
	return append(out, Chunk{Type: start, ID: id}, Chunk{Type: delta, ID: id, Delta: rest}, Chunk{Type: end, ID: id})
}

func callInput(c contract.ToolCall) Chunk {
	args := strings.TrimSpace(c.Arguments)
	if args == "" {
		args = "{}"
	}
	if !json.Valid([]byte(args)) {
		return Chunk{Type: ToolInputError, ToolCallID: c.ID, ToolName: c.Name, Input: c.Arguments, ErrorText: "arguments are not valid JSON"}
	}
	return Chunk{Type: ToolInputAvailable, ToolCallID: c.ID, ToolName: c.Name, Input: json.RawMessage(args)}
}

// toolResult sends a tool's output. A call the client never saw (its turn
// came before this stream began) gets its input first, since the client
// refuses an output for a part it does not have.
func (p *Projector) toolResult(ev contract.RunEvent) []Chunk {
	if ev.Result == nil {
		return nil
	}
	r := ev.Result
	var out []Chunk
	if !p.known[r.CallID] {
		call := contract.ToolCall{ID: r.CallID, Name: r.Name}
		if ev.Call != nil && ev.Call.ID == r.CallID {
			call = *ev.Call
		}
		p.known[r.CallID] = true
		out = append(out, callInput(call))
	}
	out = append(out, p.callOutput(r.CallID, *r)...)
	if ev.Truncated {
		out = append(out, Chunk{Type: DataToolOutputTruncated, ID: "truncated-" + r.CallID, Data: map[string]any{"toolCallId": r.CallID, "toolName": r.Name}})
	}
	return out
}

// callOutput ends the part id with the result r.
func (p *Projector) callOutput(id string, r contract.ToolResult) []Chunk {
	if p.denied[id] {
		// The client's part shows the call as not run, in the state its
		// approval flow ends in; the reason is in the data part.
		delete(p.denied, id)
		return []Chunk{{Type: ToolOutputDenied, ToolCallID: id}}
	}
	if r.IsError {
		msg := r.Content
		if msg == "" {
			msg = "tool failed"
		}
		return []Chunk{{Type: ToolOutputError, ToolCallID: id, ErrorText: msg}}
	}
	content := r.Content
	return []Chunk{{Type: ToolOutputAvail, ToolCallID: id, Output: &content}}
}

// runFaulted ends the message the way the AI SDK does: an abort chunk
// (after the metadata, since nothing follows an abort), or an error chunk
// and a finish whose reason is error.
func (p *Projector) runFaulted(ev contract.RunEvent) []Chunk {
	out := p.closeAll()
	phase := contract.PhaseFaulted
	if p.stoppedIn != "" {
		phase = p.stoppedIn
	}
	meta := p.endMetadata(ev, phase)
	msg := faultMessage(ev)
	if ev.Err != nil && ev.Err.Kind == contract.KindAborted {
		if ev.Err.Message != "" {
			msg = redact.Error(ev.Err.Message)
		}
		return append(out, Chunk{Type: MessageMetadata, MessageMetadata: meta}, Chunk{Type: Abort, Reason: msg})
	}
	return append(out, Chunk{Type: Error, ErrorText: msg}, Chunk{Type: Finish, FinishReason: "error", MessageMetadata: meta})
}

// faultMessage says why the run faulted as a person reads it, once
// (RunError.Plain), with upstream addresses and keys redacted.
func faultMessage(ev contract.RunEvent) string {
	switch {
	case ev.Err != nil:
		return redact.Error(ev.Err.Plain())
	case ev.Text != "":
		return redact.Error(ev.Text)
	}
	return "run faulted"
}

func (p *Projector) endMetadata(ev contract.RunEvent, phase contract.Phase) Metadata {
	return Metadata{SessionID: p.t.SessionID, RunID: ev.RunID, Phase: string(phase), Usage: ev.Usage, Baton: p.correction()}
}

// settledReason is the AI SDK's finish reason for a run that settled
// after a reply the model ended for stop: a reply cut at the output
// limit or refused says so, as the SDK's own providers report it.
func settledReason(stop contract.StopReason) string {
	switch stop {
	case contract.StopMaxTokens:
		return "length"
	case contract.StopRefusal:
		return "content-filter"
	}
	return "stop"
}
