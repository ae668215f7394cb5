package wire

import (
	"bytes"
	"flag"
	"os"
	"path/filepath"
	"testing"

	"github.com/batonrt/baton/contract"
	"github.com/google/go-cmp/cmp"
)

var update = flag.Bool("update", false, "rewrite golden files")

func golden(t *testing.T, name string, got []byte) {
	t.Helper()
	path := filepath.Join("testdata", "golden", name)
	if *update {
		if err := os.WriteFile(path, got, 0o644); err != nil {
			t.Fatal(err)
		}
		return
	}
	want, err := os.ReadFile(path)
	if err != nil {
		t.Fatalf("%v (run with -update to create it)", err)
	}
	if diff := cmp.Diff(string(want), string(got)); diff != "" {
		t.Errorf("%s mismatch (-want +got):\n%s", name, diff)
	}
}

const ms = contract.Timestamp(1e6)

func assistantTurn(blocks ...contract.Block) *contract.Turn {
	return &contract.Turn{Role: contract.RoleAssistant, Blocks: blocks}
}

var (
	callA   = contract.ToolCall{ID: "call_1", Name: "get_weather", Arguments: `{"city":"Paris"}`}
	resultA = contract.ToolResult{CallID: "call_1", Name: "get_weather", Content: "18C, cloudy"}
	usage   = contract.Usage{InputTokens: 30, OutputTokens: 8, ModelCalls: 2, ToolCalls: 1}
)

func ev(seq uint64, delta uint32, kind contract.EventKind) contract.RunEvent {
	return contract.RunEvent{Seq: seq, Delta: delta, SessionID: "thread-1", RunID: "run-1", At: contract.Timestamp(seq*1000+uint64(delta)) * ms, Kind: kind}
}

func with(e contract.RunEvent, f func(*contract.RunEvent)) contract.RunEvent { f(&e); return e }

// liveRun is a run with a tool call, as subscribers see it: deltas and
// committed events interleaved.
func liveRun() []contract.RunEvent {
	return []contract.RunEvent{
		with(ev(1, 0, contract.EvRunStarted), func(e *contract.RunEvent) { e.Text = "weather in Paris?" }),
		with(ev(1, 1, contract.EvThinkingDelta), func(e *contract.RunEvent) { e.Text = "need the tool" }),
		with(ev(1, 2, contract.EvTextDelta), func(e *contract.RunEvent) { e.Text = "Let me " }),
		with(ev(1, 3, contract.EvTextDelta), func(e *contract.RunEvent) { e.Text = "check." }),
		with(ev(1, 4, contract.EvToolCallDelta), func(e *contract.RunEvent) { e.Call = &contract.ToolCall{ID: "call_1", Name: "get_weather"} }),
		with(ev(1, 5, contract.EvToolCallDelta), func(e *contract.RunEvent) {
			e.Call = &contract.ToolCall{ID: "call_1", Name: "get_weather"}
			e.Text = `{"city":`
		}),
		with(ev(1, 6, contract.EvToolCallDelta), func(e *contract.RunEvent) {
			e.Call = &contract.ToolCall{ID: "call_1", Name: "get_weather"}
			e.Text = `"Paris"}`
		}),
		with(ev(2, 0, contract.EvTurnCompleted), func(e *contract.RunEvent) {
			e.Turn = assistantTurn(contract.Block{Kind: contract.BlockThinking, Text: "need the tool"}, contract.TextBlock("Let me check."), contract.CallBlock(callA))
			e.Usage = &contract.Usage{InputTokens: 10, OutputTokens: 5, ModelCalls: 1}
		}),
		with(ev(3, 0, contract.EvToolCall), func(e *contract.RunEvent) { e.Call = &callA }),
		with(ev(4, 0, contract.EvToolStarted), func(e *contract.RunEvent) { e.Call = &callA }),
		with(ev(5, 0, contract.EvToolResult), func(e *contract.RunEvent) { e.Call = &callA; e.Result = &resultA }),
		with(ev(5, 1, contract.EvTextDelta), func(e *contract.RunEvent) { e.Text = "It is 18C." }),
		with(ev(6, 0, contract.EvTurnCompleted), func(e *contract.RunEvent) {
			e.Turn = assistantTurn(contract.TextBlock("It is 18C."))
			e.Usage = &contract.Usage{InputTokens: 20, OutputTokens: 3, ModelCalls: 1}
		}),
		with(ev(7, 0, contract.EvRunSettled), func(e *contract.RunEvent) { e.Usage = &usage }),
	}
}

func committedOnly(events []contract.RunEvent) []contract.RunEvent {
	var out []contract.RunEvent
	for _, e := range events {
		if e.Delta == 0 {
			out = append(out, e)
		}
	}
	return out
}

func renderAGUI(t *testing.T, events []contract.RunEvent) []byte {
	t.Helper()
	var buf bytes.Buffer
	w := NewSSEWriter(&buf)
	p := NewAGUIProjector("thread-1")
	for _, e := range events {
		for _, a := range p.Project(e) {
			if err := w.WriteAGUI(a); err != nil {
				t.Fatal(err)
			}
		}
	}
	return buf.Bytes()
}

func TestGoldenAGUI(t *testing.T) {
	faulted := []contract.RunEvent{
		ev(1, 0, contract.EvRunStarted),
		with(ev(1, 1, contract.EvTextDelta), func(e *contract.RunEvent) { e.Text = "partial" }),
		with(ev(1, 2, contract.EvToolCallDelta), func(e *contract.RunEvent) { e.Call = &contract.ToolCall{ID: "c9", Name: "rm"}; e.Text = "{" }),
		with(ev(2, 0, contract.EvRunFaulted), func(e *contract.RunEvent) {
			e.Err = &contract.RunError{Kind: contract.KindAborted, Message: "user pressed stop"}
		}),
	}
	custom := []contract.RunEvent{
		ev(1, 0, contract.EvRunStarted),
		with(ev(2, 0, contract.EvApprovalRequested), func(e *contract.RunEvent) { e.Call = &callA }),
		with(ev(3, 0, contract.EvApprovalResolved), func(e *contract.RunEvent) {
			e.Call = &callA
			e.Approved = false
			e.Scope = contract.ScopeOnce
			e.Text = "not now"
		}),
		with(ev(4, 0, contract.EvSteeringApplied), func(e *contract.RunEvent) { e.Text = "use celsius" }),
		with(ev(5, 0, contract.EvFollowUpApplied), func(e *contract.RunEvent) { e.Text = "and tomorrow?" }),
		with(ev(6, 0, contract.EvCompaction), func(e *contract.RunEvent) { e.Text = "summary"; e.Index = 4 }),
		with(ev(7, 0, contract.EvLoopWarning), func(e *contract.RunEvent) { e.Text = "same call 3 times" }),
		with(ev(0, 0, contract.EvLag), func(e *contract.RunEvent) { e.Missed = 12 }),
		with(ev(0, 0, contract.EvSignalRejected), func(e *contract.RunEvent) { e.Signal = contract.SigToolSettled }),
		with(ev(8, 0, contract.EvRunSettled), func(e *contract.RunEvent) { e.Usage = &usage }),
	}
	for _, tt := range []struct {
		name   string
		events []contract.RunEvent
	}{
		{"agui_live.sse", liveRun()},
		{"agui_replayed.sse", committedOnly(liveRun())},
		{"agui_faulted_mid_turn.sse", faulted},
		{"agui_custom.sse", custom},
	} {
		t.Run(tt.name, func(t *testing.T) { golden(t, tt.name, renderAGUI(t, tt.events)) })
	}
}

func TestGoldenNDJSON(t *testing.T) {
	var buf bytes.Buffer
	w := NewNDJSONWriter(&buf)
	for _, e := range liveRun() {
		if err := w.WriteEvent(e); err != nil {
			t.Fatal(err)
		}
	}
	golden(t, "baton.ndjson", buf.Bytes())
}
