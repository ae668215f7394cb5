package aisdk

import (
	"bytes"
	"testing"

	"github.com/batonrt/baton/contract"
	"github.com/batonrt/baton/wire/internal/sse"
	wt "github.com/batonrt/baton/wire/internal/wiretest"
)

func renderUI(t *testing.T, events []contract.RunEvent) []byte {
	t.Helper()
	var buf bytes.Buffer
	w := sse.New(&buf)
	p := NewProjector("thread-1")
	for _, e := range events {
		for _, c := range p.Project(e) {
			if err := w.WriteJSON("", c); err != nil {
				t.Fatal(err)
			}
		}
	}
	if err := w.WriteEvent("", "", []byte("[DONE]")); err != nil {
		t.Fatal(err)
	}
	return buf.Bytes()
}

func TestGoldenUIMessageStream(t *testing.T) {
	faulted := []contract.RunEvent{
		ev(1, 0, contract.EvRunStarted),
		with(ev(1, 1, contract.EvThinkingDelta), func(e *contract.RunEvent) { e.Text = "hmm" }),
		with(ev(1, 2, contract.EvTextDelta), func(e *contract.RunEvent) { e.Text = "partial" }),
		with(ev(1, 3, contract.EvToolCallDelta), func(e *contract.RunEvent) { e.Call = &contract.ToolCall{ID: "c9", Name: "rm"}; e.Text = "{" }),
		with(ev(2, 0, contract.EvRunFaulted), func(e *contract.RunEvent) {
			e.Err = &contract.RunError{Kind: contract.KindModel, Message: "provider down"}
		}),
	}
	aborted := []contract.RunEvent{
		ev(1, 0, contract.EvRunStarted),
		with(ev(2, 0, contract.EvTurnCompleted), func(e *contract.RunEvent) {
			e.Turn = assistantTurn(contract.CallBlock(contract.ToolCall{ID: "c1", Name: "slow", Arguments: "not json"}))
		}),
		with(ev(3, 0, contract.EvToolResult), func(e *contract.RunEvent) {
			e.Result = &contract.ToolResult{CallID: "c1", Name: "slow", Content: "aborted", IsError: true}
		}),
		with(ev(4, 0, contract.EvRunFaulted), func(e *contract.RunEvent) {
			e.Err = &contract.RunError{Kind: contract.KindAborted, Message: "user pressed stop"}
			e.Usage = &usage
		}),
	}
	custom := []contract.RunEvent{
		ev(1, 0, contract.EvRunStarted),
		with(ev(2, 0, contract.EvApprovalRequested), func(e *contract.RunEvent) { e.Call = &callA }),
		with(ev(3, 0, contract.EvApprovalResolved), func(e *contract.RunEvent) {
			e.Call = &callA
			e.Scope = contract.ScopeOnce
			e.Text = "not now"
		}),
		with(ev(4, 0, contract.EvSteeringApplied), func(e *contract.RunEvent) { e.Text = "use celsius"; e.ClientIDs = []string{"msg-4"} }),
		with(ev(5, 0, contract.EvFollowUpApplied), func(e *contract.RunEvent) { e.Text = "and tomorrow?" }),
		with(ev(6, 0, contract.EvCompaction), func(e *contract.RunEvent) { e.Text = "summary"; e.Index = 4 }),
		with(ev(7, 0, contract.EvLoopWarning), func(e *contract.RunEvent) { e.Text = "same call 3 times" }),
		with(ev(8, 0, contract.EvModelRetry), func(e *contract.RunEvent) { e.Text = "429, retrying" }),
		with(ev(9, 0, contract.EvToolStarted), func(e *contract.RunEvent) { e.Call = &callA }),
		with(ev(0, 0, contract.EvLag), func(e *contract.RunEvent) { e.Missed = 12 }),
		with(ev(0, 0, contract.EvSignalRejected), func(e *contract.RunEvent) { e.Signal = contract.SigToolSettled }),
		with(ev(10, 0, contract.EvRunSettled), func(e *contract.RunEvent) { e.Usage = &usage }),
	}
	for _, tt := range []struct {
		name   string
		events []contract.RunEvent
	}{
		{"ui_live.sse", liveRun()},
		{"ui_replayed.sse", committedOnly(liveRun())},
		{"ui_faulted_mid_turn.sse", faulted},
		{"ui_aborted.sse", aborted},
		{"ui_custom.sse", custom},
		{"ui_delegated.sse", wt.DelegatedRun()},
		{"ui_input_dropped.sse", wt.DroppedInputRun()},
	} {
		t.Run(tt.name, func(t *testing.T) { wt.Golden(t, tt.name, renderUI(t, tt.events)) })
	}
}
