package agui

import (
	"bytes"
	"testing"

	"github.com/batonrt/baton/contract"
	"github.com/batonrt/baton/wire/internal/sse"
	wt "github.com/batonrt/baton/wire/internal/wiretest"
)

func render(t *testing.T, events []contract.RunEvent) []byte {
	t.Helper()
	var buf bytes.Buffer
	w := sse.New(&buf)
	p := NewProjector("thread-1")
	for _, e := range events {
		for _, a := range p.Project(e) {
			if err := w.WriteJSON(a.ID, a); err != nil {
				t.Fatal(err)
			}
		}
	}
	return buf.Bytes()
}

func TestGolden(t *testing.T) {
	faulted := []contract.RunEvent{
		wt.Ev(1, 0, contract.EvRunStarted),
		wt.With(wt.Ev(1, 1, contract.EvTextDelta), func(e *contract.RunEvent) { e.Text = "partial" }),
		wt.With(wt.Ev(1, 2, contract.EvToolCallDelta), func(e *contract.RunEvent) { e.Call = &contract.ToolCall{ID: "c9", Name: "rm"}; e.Text = "{" }),
		wt.With(wt.Ev(2, 0, contract.EvRunFaulted), func(e *contract.RunEvent) {
			e.Err = &contract.RunError{Kind: contract.KindAborted, Message: "user pressed stop"}
		}),
	}
	custom := []contract.RunEvent{
		wt.Ev(1, 0, contract.EvRunStarted),
		wt.With(wt.Ev(2, 0, contract.EvApprovalRequested), func(e *contract.RunEvent) { e.Call = &wt.CallA }),
		wt.With(wt.Ev(3, 0, contract.EvApprovalResolved), func(e *contract.RunEvent) {
			e.Call = &wt.CallA
			e.Approved = false
			e.Scope = contract.ScopeOnce
			e.Text = "not now"
		}),
		wt.With(wt.Ev(4, 0, contract.EvSteeringApplied), func(e *contract.RunEvent) { e.Text = "use celsius"; e.ClientIDs = []string{"msg-4"} }),
		wt.With(wt.Ev(5, 0, contract.EvFollowUpApplied), func(e *contract.RunEvent) { e.Text = "and tomorrow?" }),
		wt.With(wt.Ev(6, 0, contract.EvCompaction), func(e *contract.RunEvent) { e.Text = "summary"; e.Index = 4 }),
		wt.With(wt.Ev(7, 0, contract.EvLoopWarning), func(e *contract.RunEvent) { e.Text = "same call 3 times" }),
		wt.With(wt.Ev(0, 0, contract.EvLag), func(e *contract.RunEvent) { e.Missed = 12 }),
		wt.With(wt.Ev(0, 0, contract.EvSignalRejected), func(e *contract.RunEvent) { e.Signal = contract.SigToolSettled }),
		wt.With(wt.Ev(8, 0, contract.EvRunSettled), func(e *contract.RunEvent) { e.Usage = &wt.Usage }),
	}
	for _, tt := range []struct {
		name   string
		events []contract.RunEvent
	}{
		{"agui_live.sse", wt.LiveRun()},
		{"agui_replayed.sse", wt.CommittedOnly(wt.LiveRun())},
		{"agui_faulted_mid_turn.sse", faulted},
		{"agui_custom.sse", custom},
		{"agui_delegated.sse", wt.DelegatedRun()},
		{"agui_input_dropped.sse", wt.DroppedInputRun()},
	} {
		t.Run(tt.name, func(t *testing.T) { wt.Golden(t, tt.name, render(t, tt.events)) })
	}
}
