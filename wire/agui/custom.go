package agui

import (
	"github.com/batonrt/baton/contract"
	"github.com/batonrt/baton/internal/redact"
	"github.com/batonrt/baton/wire/internal/track"
)

// custom maps the events AG-UI has no type for onto CUSTOM events.
func (p *Projector) custom(ev contract.RunEvent) (Event, bool) {
	c := Event{Type: Custom}
	switch ev.Kind {
	case contract.EvApprovalRequested:
		c.Name, c.Value = CustomApprovalRequested, track.CallValue(ev.Call, "toolCallName")
	case contract.EvApprovalResolved:
		c.Name, c.Value = CustomApprovalResolved, track.ApprovalValue(ev, "toolCallName")
	case contract.EvToolStarted:
		c.Name, c.Value = CustomToolStarted, track.CallValue(ev.Call, "toolCallName")
	case contract.EvSteeringApplied:
		c.Name, c.Value = CustomSteeringApplied, track.InputValue(ev)
	case contract.EvFollowUpApplied:
		c.Name, c.Value = CustomFollowUpApplied, track.InputValue(ev)
	case contract.EvInputDropped:
		c.Name, c.Value = CustomInputDropped, track.InputValue(ev)
	case contract.EvCompaction:
		c.Name, c.Value = CustomCompaction, map[string]any{"text": track.CompactionText(ev), "cut": ev.Index}
	case contract.EvLoopWarning:
		c.Name, c.Value = CustomLoopWarning, map[string]any{"text": ev.Text}
	case contract.EvModelRetry:
		c.Name, c.Value = CustomModelRetry, map[string]any{"text": redact.Error(ev.Text)}
	case contract.EvLag:
		c.Name, c.Value = CustomLag, map[string]any{"missed": ev.Missed}
	default:
		return c, false
	}
	return c, true
}
