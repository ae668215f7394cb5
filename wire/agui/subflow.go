package agui

import (
	"slices"
	"strings"

	"github.com/batonrt/baton/contract"
	"github.com/batonrt/baton/wire/internal/track"
)

// A delegated run is shown as an AG-UI step: STEP_STARTED when the
// delegate call's child run starts, STEP_FINISHED when it ends, named by
// the subflow path and the delegate's tool. AG-UI has one message stream
// per run, and a client would render a child's messages as the parent's
// reply, so the child's own work (its turns, tool calls and results, its
// nested delegations) goes as CUSTOM baton.subflow events carrying the
// subflow path, for clients that want to show it; steps are what every
// client renders. The delegate call itself stays an ordinary tool call
// whose result is the child's answer.

// step projects a subflow_started, _completed or _failed event, and
// keeps the active steps.
func (p *Projector) step(ev contract.RunEvent) Event {
	e := Event{Type: StepStarted, StepName: stepName(ev)}
	if ev.Kind != contract.EvSubflowStarted {
		e.Type = StepFinished
		if i := slices.Index(p.steps, e.StepName); i >= 0 {
			p.steps = slices.Delete(p.steps, i, i+1)
		}
		return e
	}
	p.steps = append(p.steps, e.StepName)
	return e
}

// stepName is the path of delegate call ids down to the child, and the
// delegate's tool: "c1/c4 delegate_writer".
func stepName(ev contract.RunEvent) string {
	path := append(append([]string(nil), ev.Subflow...), callID(ev.Call))
	name := ""
	if ev.Call != nil {
		name = " " + ev.Call.Name
	}
	return strings.Join(path, "/") + name
}

func callID(c *contract.ToolCall) string {
	if c == nil {
		return ""
	}
	return c.ID
}

// child projects an event of a delegated run. It carries no SSE id: its
// Seq counts the child's run, not the stream a client resumes. A child's
// question is also a tool call of the stream's message, named by
// track.SubflowCallID, so that a client answers it with a tool message as
// it answers the run's own; its answer is that call's result. A child's
// approval request is such a call too, answered with a decision.
func (p *Projector) child(ev contract.RunEvent) []Event {
	var out []Event
	switch {
	case track.IsDelta(ev.Kind), ev.Kind == contract.EvModelRetry, ev.Kind == contract.EvLag:
		return nil
	case ev.Kind == contract.EvSubflowStarted, ev.Kind == contract.EvSubflowCompleted, ev.Kind == contract.EvSubflowFailed:
		out = []Event{p.step(ev)}
	case (ev.Kind == contract.EvQuestionAsked || ev.Kind == contract.EvApprovalRequested) && ev.Call != nil:
		id := track.SubflowCallID(ev)
		out = append(out, Event{Type: ToolCallStart, ToolCallID: id, ToolCallName: ev.Call.Name, ParentMessageID: p.messageID()})
		if ev.Call.Arguments != "" {
			out = append(out, Event{Type: ToolCallArgs, ToolCallID: id, Delta: ev.Call.Arguments})
		}
		out = append(out, Event{Type: ToolCallEnd, ToolCallID: id}, subflowEvent(ev))
	case ev.Kind == contract.EvQuestionAnswered && ev.Call != nil:
		id, answer := track.SubflowCallID(ev), ev.Text
		out = []Event{{Type: ToolCallResult, MessageID: "t-" + id, ToolCallID: id, Content: &answer, Role: "tool"}, subflowEvent(ev)}
	default:
		out = []Event{subflowEvent(ev)}
	}
	for i := range out {
		out[i].Timestamp = int64(ev.At) / 1e6
	}
	return out
}

func subflowEvent(ev contract.RunEvent) Event {
	return Event{Type: Custom, Name: CustomSubflow, Value: track.SubflowValue(ev, "toolCallName")}
}
