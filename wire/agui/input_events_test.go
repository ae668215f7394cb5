package agui

import (
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/batonrt/baton/contract"
	wt "github.com/batonrt/baton/wire/internal/wiretest"
)

// The events that say where queued input went name the client's messages
// it held (contract.RunEvent.ClientIDs) as messageIds, so that a client
// marks which of its messages the model got and which it never will;
// input without ids says nothing more than before.
func TestQueuedInputEventsNameTheClientsMessages(t *testing.T) {
	ids := func(e *contract.RunEvent) { e.ClientIDs = []string{"m2", "m3"} }
	tests := []struct {
		name string
		ev   contract.RunEvent
		want map[string]any
	}{
		{"steering applied", wt.With(wt.Ev(2, 0, contract.EvSteeringApplied), func(e *contract.RunEvent) { e.Text = "use celsius"; ids(e) }),
			map[string]any{"text": "use celsius", "messageIds": []string{"m2", "m3"}}},
		{"follow-up applied", wt.With(wt.Ev(2, 0, contract.EvFollowUpApplied), func(e *contract.RunEvent) { e.Text = "and wind"; ids(e) }),
			map[string]any{"text": "and wind", "messageIds": []string{"m2", "m3"}}},
		{"input dropped", wt.With(wt.Ev(2, 0, contract.EvInputDropped), func(e *contract.RunEvent) {
			e.Text, e.Input = "use celsius", contract.InputSteer
			ids(e)
		}), map[string]any{"text": "use celsius", "kind": "steer", "messageIds": []string{"m2", "m3"}}},
		{"input dropped without ids", wt.With(wt.Ev(2, 0, contract.EvInputDropped), func(e *contract.RunEvent) {
			e.Text, e.Input = "use celsius", contract.InputSteer
		}), map[string]any{"text": "use celsius", "kind": "steer"}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			p := NewProjector("thread-1")
			p.Project(wt.Ev(1, 0, contract.EvRunStarted))
			out := p.Project(tt.ev)
			if len(out) != 1 || out[0].Type != Custom {
				t.Fatalf("projected %v, want one CUSTOM event", out)
			}
			if diff := cmp.Diff(tt.want, out[0].Value); diff != "" {
				t.Errorf("CUSTOM %s value mismatch (-want +got):\n%s", out[0].Name, diff)
			}
		})
	}
}
