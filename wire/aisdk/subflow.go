package aisdk

import (
	"strings"

	"github.com/batonrt/baton/contract"
	"github.com/batonrt/baton/wire/internal/track"
)

// A delegated run is shown as one data-baton-subflow part per delegate
// call, kept in the message and replaced as the child goes (same id:
// running, then completed or failed with its answer), so a client renders
// nested progress under the delegate's tool call. The UI message stream
// holds one assistant message per request, so the child's own work (its
// turns, tool calls and results, nested delegations) goes as transient
// data-baton-subflow-event parts with the subflow path, which reach
// onData without piling up in the message. The delegate call itself
// stays an ordinary tool part whose output is the child's answer.

// subflow projects a subflow_started, _completed or _failed event.
func subflow(ev contract.RunEvent) Chunk {
	id := ""
	if ev.Call != nil {
		id = ev.Call.ID
	}
	path := append(append([]string(nil), ev.Subflow...), id)
	status := "running"
	switch ev.Kind {
	case contract.EvSubflowCompleted:
		status = "completed"
	case contract.EvSubflowFailed:
		status = "failed"
	}
	v := track.CallValue(ev.Call, "toolName")
	v["subflow"], v["sessionId"], v["status"] = path, ev.Text, status
	return Chunk{Type: DataSubflow, ID: "subflow-" + strings.Join(path, "/"), Data: v}
}

// child projects an event of a delegated run. A child's question or
// approval request is also a tool part of the message, named by
// track.SubflowCallID, so that the client answers it with addToolOutput
// or addToolApprovalResponse as it answers the run's own; the answer, or
// else the call's result, is that part's output.
func (p *Projector) child(ev contract.RunEvent) []Chunk {
	switch {
	case track.IsDelta(ev.Kind), ev.Kind == contract.EvModelRetry, ev.Kind == contract.EvLag:
		return nil
	case ev.Kind == contract.EvSubflowStarted, ev.Kind == contract.EvSubflowCompleted, ev.Kind == contract.EvSubflowFailed:
		return []Chunk{subflow(ev)}
	}
	data := Chunk{Type: DataSubflowEvent, Data: track.SubflowValue(ev, "toolName"), Transient: true}
	switch {
	case ev.Kind == contract.EvQuestionAsked && ev.Call != nil:
		call := *ev.Call
		call.ID = track.SubflowCallID(ev)
		p.asked[call.ID] = true
		// A step of its own: the client sends its answer once every tool
		// part of the last step has an output, and the delegate call's
		// part, before it, has none until the child ends.
		return []Chunk{{Type: StartStep}, callInput(call), data}
	case ev.Kind == contract.EvApprovalRequested && ev.Call != nil:
		// As a question, in a step of its own; the approval id is the
		// part's call id, as for the run's own calls.
		call := *ev.Call
		call.ID = track.SubflowCallID(ev)
		p.asked[call.ID] = true
		return []Chunk{{Type: StartStep}, callInput(call), {Type: ToolApprovalRequest, ApprovalID: call.ID, ToolCallID: call.ID}, data}
	case ev.Kind == contract.EvQuestionAnswered && ev.Call != nil && p.decided[track.SubflowCallID(ev)]:
		delete(p.decided, track.SubflowCallID(ev))
		return []Chunk{data}
	case ev.Kind == contract.EvQuestionAnswered && ev.Call != nil:
		delete(p.asked, track.SubflowCallID(ev))
		answer := ev.Text
		return []Chunk{{Type: ToolOutputAvail, ToolCallID: track.SubflowCallID(ev), Output: &answer}, data}
	case ev.Kind == contract.EvApprovalResolved && ev.Call != nil && !ev.Approved && (p.asked[track.SubflowCallID(ev)] || p.isDecided(ev)):
		p.denied[track.SubflowCallID(ev)] = true
	case ev.Kind == contract.EvToolResult && ev.Result != nil && ev.Call != nil && p.isDecided(ev):
		call := *ev.Call
		call.ID = track.SubflowCallID(ev)
		delete(p.decided, call.ID)
		return append(append([]Chunk{callInput(call)}, p.callOutput(call.ID, *ev.Result)...), data)
	case ev.Kind == contract.EvToolResult && ev.Result != nil && ev.Call != nil && p.asked[track.SubflowCallID(ev)]:
		// The part the client approved (or the question it never
		// answered, when an abort cut the child off) gets the call's
		// result: left in approval-responded, the AI SDK's Chat takes the
		// message for one to send back, a run stopped or not.
		id := track.SubflowCallID(ev)
		delete(p.asked, id)
		return append(p.callOutput(id, *ev.Result), data)
	}
	return []Chunk{data}
}

// isDecided reports whether ev's call is an approval the client decided
// in an earlier message (see Decided).
func (p *Projector) isDecided(ev contract.RunEvent) bool {
	question, ok := p.decided[track.SubflowCallID(ev)]
	return ok && !question
}
