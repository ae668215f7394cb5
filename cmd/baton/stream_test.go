package main

import (
	"bytes"
	"strings"
	"testing"

	"github.com/batonrt/baton/contract"
	"github.com/google/go-cmp/cmp"
)

func TestPrinterText(t *testing.T) {
	var buf bytes.Buffer
	p := newPrinter(&buf, false, false)
	call := &contract.ToolCall{ID: "c1", Name: "read_file", Arguments: `{"path":"a"}`}
	for _, ev := range []contract.RunEvent{
		{Kind: contract.EvRunStarted},
		{Kind: contract.EvTextDelta, Text: "Hel"},
		{Kind: contract.EvTextDelta, Text: "lo."},
		{Kind: contract.EvToolCall, Call: call},
		{Kind: contract.EvToolStarted, Call: call},
		{Kind: contract.EvToolResult, Call: call, Result: &contract.ToolResult{CallID: "c1", Name: "read_file", Content: "line one\nline two", IsError: false}},
		{Kind: contract.EvSteeringApplied, Text: "be brief"},
		{Kind: contract.EvLag, Missed: 3},
		{Kind: contract.EvLag, Missed: 1},
		{Kind: contract.EvInputDropped, Text: "and tomorrow?", Input: contract.InputFollowUp},
		{Kind: contract.EvRunFaulted, Err: contract.NewError(contract.KindMaxTurns, "64 model calls")},
	} {
		p.event(ev)
	}
	p.close()
	want := "Hello.\n→ #1 read_file {\"path\":\"a\"}\n← #1 read_file: line one line two\n↪ be brief\n·· (missed 3 events)\n·· (missed 1 event)\n·· not delivered (follow_up): and tomorrow?\n── faulted: max_turns: 64 model calls\n"
	if diff := cmp.Diff(want, buf.String()); diff != "" {
		t.Errorf("mismatch (-want +got):\n%s", diff)
	}
}

func TestPrinterSpinnerOnlyOnTerminal(t *testing.T) {
	call := &contract.ToolCall{ID: "c1", Name: "shell"}
	for _, tty := range []bool{false, true} {
		var buf syncBuffer
		p := newPrinter(&buf, false, tty)
		p.event(contract.RunEvent{Kind: contract.EvToolStarted, Call: call})
		p.tick()
		p.event(contract.RunEvent{Kind: contract.EvToolResult, Result: &contract.ToolResult{CallID: "c1", Name: "shell", Content: "ok"}})
		p.tick()
		p.close()
		out := buf.String()
		spun := strings.Contains(out, spinFrames[0]+" running shell")
		if spun != tty {
			t.Errorf("tty %v: spinner shown %v:\n%q", tty, spun, out)
		}
		if tty && !strings.HasSuffix(out, "\r\033[K← shell: ok\n") {
			t.Errorf("spinner not cleared before the result: %q", out)
		}
	}
}

func TestPrinterJSON(t *testing.T) {
	var buf bytes.Buffer
	p := newPrinter(&buf, true, true)
	p.event(contract.RunEvent{Seq: 1, SessionID: "s", Kind: contract.EvRunStarted})
	p.event(contract.RunEvent{Seq: 1, Delta: 1, SessionID: "s", Kind: contract.EvTextDelta, Text: "hi"})
	p.close()
	want := `{"seq":1,"session_id":"s","at":0,"kind":"run_started"}` + "\n" + `{"seq":1,"delta":1,"session_id":"s","at":0,"kind":"text_delta","text":"hi"}` + "\n"
	if diff := cmp.Diff(want, buf.String()); diff != "" {
		t.Errorf("mismatch (-want +got):\n%s", diff)
	}
}

// Each model call's text starts on a line of its own, even when the call
// before it ended mid-line with no tool call: an answer the output schema
// sent back is not run together with the next one.
func TestPrinterModelCallsOnLinesOfTheirOwn(t *testing.T) {
	var buf bytes.Buffer
	p := newPrinter(&buf, false, false)
	for _, ev := range []contract.RunEvent{
		{Kind: contract.EvRunStarted},
		{Kind: contract.EvTurnStarted, Round: 1},
		{Kind: contract.EvTextDelta, Text: "Sunny."},
		{Kind: contract.EvTurnCompleted},
		{Kind: contract.EvTurnStarted, Round: 2},
		{Kind: contract.EvTextDelta, Text: `{"city":"Oslo"}`},
		{Kind: contract.EvTurnCompleted},
		{Kind: contract.EvRunSettled},
	} {
		p.event(ev)
	}
	p.close()
	want := "Sunny.\n{\"city\":\"Oslo\"}\n── done\n"
	if diff := cmp.Diff(want, buf.String()); diff != "" {
		t.Errorf("mismatch (-want +got):\n%s", diff)
	}
}
