package track

import (
	"slices"
	"strings"

	"github.com/batonrt/baton/contract"
	"github.com/batonrt/baton/internal/redact"
)

// CallValue is a tool call as both protocols carry it in their custom
// events; nameKey is the protocol's name for the tool's name.
func CallValue(call *contract.ToolCall, nameKey string) map[string]any {
	if call == nil {
		return map[string]any{}
	}
	return map[string]any{"toolCallId": call.ID, nameKey: call.Name, "arguments": call.Arguments}
}

// ApprovalValue is an approval_resolved event's value.
func ApprovalValue(ev contract.RunEvent, nameKey string) map[string]any {
	v := CallValue(ev.Call, nameKey)
	v["approved"] = ev.Approved
	if ev.Scope != "" {
		v["scope"] = string(ev.Scope)
	}
	if ev.Text != "" {
		v["reason"] = ev.Text
	}
	return v
}

// InputValue is the value of the events that say where queued input
// went (steering_applied, follow_up_applied, input_dropped), as both
// protocols carry them: its text, the kind of input dropped, and the ids
// of the client's messages it held, by which a client marks which of
// them the model got and which it never will.
func InputValue(ev contract.RunEvent) map[string]any {
	v := map[string]any{"text": ev.Text}
	if ev.Kind == contract.EvInputDropped {
		v["kind"] = string(ev.Input)
	}
	if len(ev.ClientIDs) > 0 {
		v["messageIds"] = slices.Clone(ev.ClientIDs)
	}
	return v
}

// SubflowValue is what a client needs to show one event of a delegated
// run; an error's text is redacted as every error sent to a client is.
func SubflowValue(ev contract.RunEvent, nameKey string) map[string]any {
	v := map[string]any{"subflow": ev.Subflow, "sessionId": ev.SessionID, "kind": string(ev.Kind)}
	if ev.Text != "" {
		v["text"] = ev.Text
	}
	if ev.Kind == contract.EvCompaction {
		v["text"] = CompactionText(ev)
	}
	if ev.Turn != nil && ev.Turn.Text() != "" {
		v["text"] = ev.Turn.Text()
	}
	if ev.Call != nil {
		v["toolCallId"], v[nameKey], v["arguments"] = ev.Call.ID, ev.Call.Name, ev.Call.Arguments
	}
	if ev.Result != nil {
		v["content"], v["isError"] = ev.Result.Content, ev.Result.IsError
	}
	if ev.Err != nil {
		// A faulted run's text is its error's message.
		v["error"] = redact.Error(ev.Err.Error())
		if text, ok := v["text"].(string); ok {
			v["text"] = redact.Error(text)
		}
	}
	return v
}

// SubflowCallID names a delegated run's tool call for a client: the
// subflow path and the call's id, "c1/q1", which no call of the root run
// (nor of another child) shares. A client answers a child's question
// under this id.
func SubflowCallID(ev contract.RunEvent) string {
	if ev.Call == nil {
		return ""
	}
	return strings.Join(append(slices.Clone(ev.Subflow), ev.Call.ID), "/")
}

// CompactionText is a compaction event's text as clients see it. A
// summary (an event naming the cut it replaced) is the model's own text
// and goes as it is; any other says why no summary was made, and may
// quote the provider's error with the upstream URL and keys it held, so
// it is redacted as every error sent to a client is.
func CompactionText(ev contract.RunEvent) string {
	if ev.Index > 0 {
		return ev.Text
	}
	return redact.Error(ev.Text)
}
