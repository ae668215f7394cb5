package agui

import (
	"testing"

	"github.com/batonrt/baton/contract"
	wt "github.com/batonrt/baton/wire/internal/wiretest"
)

// Diverged is set by the turn_completed of a model call whose stored
// turn does not go on from what the stream sent the client, and only by
// it: a turn as streamed, one whose rest came late, and one projected
// from the store, without deltas, leave the client holding the turn.
func TestDiverged(t *testing.T) {
	text := func(delta uint32, s string) contract.RunEvent {
		return wt.With(wt.Ev(1, delta, contract.EvTextDelta), func(e *contract.RunEvent) { e.Text = s })
	}
	call := func(delta uint32, id, args string) contract.RunEvent {
		return wt.With(wt.Ev(1, delta, contract.EvToolCallDelta), func(e *contract.RunEvent) {
			e.Call, e.Text = &contract.ToolCall{ID: id, Name: "f"}, args
		})
	}
	retry := wt.Ev(1, 2, contract.EvModelRetry)
	done := func(blocks ...contract.Block) contract.RunEvent {
		return wt.With(wt.Ev(2, 0, contract.EvTurnCompleted), func(e *contract.RunEvent) { e.Turn = wt.AssistantTurn(blocks...) })
	}
	hello := contract.TextBlock("Hello world.")
	tests := []struct {
		name   string
		events []contract.RunEvent
		want   bool
	}{
		{"as streamed", []contract.RunEvent{text(1, "Hello world.")}, false},
		{"rest came late", []contract.RunEvent{text(1, "Hello ")}, false},
		{"from the store", nil, false},
		{"other text", []contract.RunEvent{text(1, "Howdy")}, true},
		{"an attempt broke", []contract.RunEvent{text(1, "Howdy"), retry, text(3, "Hello world.")}, true},
		{"an attempt broke before it streamed", []contract.RunEvent{retry, text(3, "Hello world.")}, false},
		{"a call dropped", []contract.RunEvent{text(1, "Hello world."), call(2, "c0", "")}, true},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			p := NewProjector("s1")
			p.Project(wt.Ev(1, 0, contract.EvRunStarted))
			for _, ev := range tt.events {
				p.Project(ev)
				if p.Diverged() {
					t.Fatalf("diverged at %s, before the turn completed", ev.Kind)
				}
			}
			p.Project(done(hello))
			if got := p.Diverged(); got != tt.want {
				t.Errorf("Diverged() = %v, want %v", got, tt.want)
			}
			if p.Project(wt.Ev(3, 0, contract.EvRunSettled)); p.Diverged() {
				t.Errorf("still diverged after the next event")
			}
		})
	}
	t.Run("call mended", func(t *testing.T) {
		p := NewProjector("s1")
		p.Project(wt.Ev(1, 0, contract.EvRunStarted))
		p.Project(call(1, "c1", `{a:1}`))
		p.Project(done(contract.CallBlock(contract.ToolCall{ID: "c1", Name: "f", Arguments: `{"a":1}`})))
		if !p.Diverged() {
			t.Errorf("Diverged() = false for a call whose arguments the turn mended")
		}
	})
}
