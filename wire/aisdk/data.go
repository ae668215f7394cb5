package aisdk

import (
	"fmt"

	"github.com/batonrt/baton/contract"
	"github.com/batonrt/baton/internal/redact"
	"github.com/batonrt/baton/wire/internal/track"
)

// data maps the events the UI message stream has no chunk for onto data
// parts. Parts that describe the run stay in the message and carry an id
// derived from the event, so a re-projection replaces rather than repeats
// them; progress notices are transient.
func data(ev contract.RunEvent) (Chunk, bool) {
	seqID := func(prefix string) string { return fmt.Sprintf("%s-%d", prefix, ev.Seq) }
	switch ev.Kind {
	case contract.EvApprovalRequested:
		return Chunk{Type: DataApprovalRequested, ID: seqID("approval"), Data: track.CallValue(ev.Call, "toolName")}, true
	case contract.EvApprovalResolved:
		return Chunk{Type: DataApprovalResolved, ID: seqID("approval"), Data: track.ApprovalValue(ev, "toolName")}, true
	case contract.EvSteeringApplied:
		return Chunk{Type: DataSteeringApplied, ID: seqID("steer"), Data: track.InputValue(ev)}, true
	case contract.EvFollowUpApplied:
		return Chunk{Type: DataFollowUpApplied, ID: seqID("follow-up"), Data: track.InputValue(ev)}, true
	case contract.EvInputDropped:
		return Chunk{Type: DataInputDropped, ID: seqID("dropped"), Data: track.InputValue(ev)}, true
	case contract.EvCompaction:
		return Chunk{Type: DataCompaction, ID: seqID("compaction"), Data: map[string]any{"text": track.CompactionText(ev), "cut": ev.Index}}, true
	case contract.EvLoopWarning:
		return Chunk{Type: DataLoopWarning, ID: seqID("loop"), Data: map[string]any{"text": ev.Text}}, true
	case contract.EvModelRetry:
		return Chunk{Type: DataModelRetry, Data: map[string]any{"text": redact.Error(ev.Text)}, Transient: true}, true
	case contract.EvToolStarted:
		return Chunk{Type: DataToolStarted, Data: track.CallValue(ev.Call, "toolName"), Transient: true}, true
	case contract.EvLag:
		return Chunk{Type: DataLag, Data: map[string]any{"missed": ev.Missed}, Transient: true}, true
	}
	return Chunk{}, false
}
