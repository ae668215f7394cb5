package aisdk

import (
	"fmt"

	"github.com/batonrt/baton/contract"
	"github.com/batonrt/baton/wire/internal/redact"
)

// data maps the events the UI message stream has no chunk for onto data
// parts. Parts that describe the run stay in the message and carry an id
// derived from the event, so a re-projection replaces rather than repeats
// them; progress notices are transient.
func data(ev contract.RunEvent) (Chunk, bool) {
	seqID := func(prefix string) string { return fmt.Sprintf("%s-%d", prefix, ev.Seq) }
	switch ev.Kind {
	case contract.EvApprovalRequested:
		return Chunk{Type: DataApprovalRequested, ID: seqID("approval"), Data: callValue(ev.Call)}, true
	case contract.EvApprovalResolved:
		v := callValue(ev.Call)
		v["approved"] = ev.Approved
		if ev.Scope != "" {
			v["scope"] = string(ev.Scope)
		}
		if ev.Text != "" {
			v["reason"] = ev.Text
		}
		return Chunk{Type: DataApprovalResolved, ID: seqID("approval"), Data: v}, true
	case contract.EvSteeringApplied:
		return Chunk{Type: DataSteeringApplied, ID: seqID("steer"), Data: map[string]any{"text": ev.Text}}, true
	case contract.EvFollowUpApplied:
		return Chunk{Type: DataFollowUpApplied, ID: seqID("follow-up"), Data: map[string]any{"text": ev.Text}}, true
	case contract.EvCompaction:
		return Chunk{Type: DataCompaction, ID: seqID("compaction"), Data: map[string]any{"text": ev.Text, "cut": ev.Index}}, true
	case contract.EvLoopWarning:
		return Chunk{Type: DataLoopWarning, ID: seqID("loop"), Data: map[string]any{"text": ev.Text}}, true
	case contract.EvModelRetry:
		return Chunk{Type: DataModelRetry, Data: map[string]any{"text": redact.Error(ev.Text)}, Transient: true}, true
	case contract.EvToolStarted:
		return Chunk{Type: DataToolStarted, Data: callValue(ev.Call), Transient: true}, true
	case contract.EvLag:
		return Chunk{Type: DataLag, Data: map[string]any{"missed": ev.Missed}, Transient: true}, true
	}
	return Chunk{}, false
}

func callValue(call *contract.ToolCall) map[string]any {
	if call == nil {
		return map[string]any{}
	}
	return map[string]any{"toolCallId": call.ID, "toolName": call.Name, "arguments": call.Arguments}
}
