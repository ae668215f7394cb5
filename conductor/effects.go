package conductor

import (
	"context"
	"errors"
	"fmt"
	"slices"

	"github.com/batonrt/baton/contract"
)

// perform does one effect of a step. The effects of every turn are done
// here; the others are left to performOther, so their values take no
// room in this frame, which is on the stack under every store append and
// tool run in place.
func (a *Agent) perform(e contract.Effect) error {
	switch e := e.(type) {
	case *contract.Persist:
		if err := a.persist(e); err != nil {
			return persistFailed(e, err)
		}
	case *contract.Publish:
		if e.Event.Kind == contract.EvTurnCompleted {
			e.Event.ResponseModel, e.Event.ResponseID = a.response.Model, a.response.ID
		}
		a.publish(&e.Event)
	case *contract.InvokeModel:
		a.startModel(&e.Request)
	case *contract.RunTool:
		a.startTool(&e.Call)
	default:
		return a.performOther(e)
	}
	return nil
}

// persistFailed is the error of a step whose record was not made
// durable; its formatting is kept out of perform's frame.
//
//go:noinline
func persistFailed(e *contract.Persist, err error) error {
	return fmt.Errorf("conductor: persist step %d: %w", e.Record.Step, err)
}

// performOther does the effects of a step that perform leaves.
//
//go:noinline
func (a *Agent) performOther(e contract.Effect) error {
	switch e := e.(type) {
	case *contract.RequestApproval:
		a.askApproval(ApprovalRequest{Call: e.Call, Tool: e.Tool, Keys: e.Keys, RunID: a.state.RunID, Turn: a.state.Turns, Subflow: slices.Clone(a.path)})
	case *contract.AskHuman:
		a.askHuman(e.Call, e.Question)
	case *contract.Compact:
		a.startCompaction(e.Turns, e.Cut)
	case *contract.CancelInFlight:
		if e.Model && a.run != nil && a.run.modelCancel != nil {
			a.run.deltas.close()
			a.run.modelCancel()
		}
		for _, id := range e.CallIDs {
			a.sched.Cancel(id)
		}
	default:
		return errors.New("conductor: unknown effect " + string(e.EffectKind()))
	}
	return nil
}

// persist appends a step's record.
func (a *Agent) persist(e *contract.Persist) error {
	if len(e.Links) > 0 {
		return a.persistLinked(e)
	}
	if a.recorder != nil {
		return a.recorder.Record(context.Background(), a.state.SessionID, e.Record)
	}
	// Handed over in the agent's own one-record slice: a slice made
	// here would be allocated, as Append is called through an interface.
	a.record[0] = e.Record
	_, err := a.store.Append(context.Background(), a.state.SessionID, a.record[:]...)
	a.record[0] = contract.Record{}
	return err
}

// publish delivers an event to subscribers: a child's go up to its parent.
func (a *Agent) publish(ev *contract.RunEvent) {
	if a.forward != nil {
		a.forwardEvent(ev)
		return
	}
	a.hub.Publish(ev)
}

// watched reports whether anyone sees the agent's events: a subscriber
// of its hub, or, for a delegate's child, of the stream its parent's
// events go to.
func (a *Agent) watched() bool {
	for a.forward != nil {
		a = a.parent
	}
	return a.hub.HasSubscribers()
}
