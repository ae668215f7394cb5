package aisdk

import (
	"bytes"
	"context"
	"encoding/json"
	"os"
	"os/exec"
	"path/filepath"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"

	"github.com/batonrt/baton/contract"
	wt "github.com/batonrt/baton/wire/internal/wiretest"
)

// twoRuns is a thread of two runs: the first settled with a tool call,
// the second steered, its call denied, and still in flight.
func twoRuns() []contract.RunEvent {
	second := func(seq uint64, kind contract.EventKind, f func(*contract.RunEvent)) contract.RunEvent {
		e := ev(seq, 0, kind)
		e.RunID = "run-2"
		f(&e)
		return e
	}
	rm := contract.ToolCall{ID: "call_1", Name: "rm", Arguments: `{"path":"build"}`}
	return append(committedOnly(liveRun()),
		second(8, contract.EvRunStarted, func(e *contract.RunEvent) { e.Text = "clean <b>up</b>" }),
		second(9, contract.EvTurnCompleted, func(e *contract.RunEvent) { e.Turn = assistantTurn(contract.CallBlock(rm)) }),
		second(10, contract.EvApprovalRequested, func(e *contract.RunEvent) { e.Call = &rm }),
		second(11, contract.EvApprovalResolved, func(e *contract.RunEvent) { e.Call = &rm; e.Text = "no" }),
		second(12, contract.EvToolResult, func(e *contract.RunEvent) {
			e.Call = &rm
			e.Result = &contract.ToolResult{CallID: "call_1", Name: "rm", Content: "denied", IsError: true}
		}),
		second(13, contract.EvSteeringApplied, func(e *contract.RunEvent) { e.Text = "keep the build" }),
		func() contract.RunEvent {
			e := ev(13, 1, contract.EvTextDelta)
			e.RunID, e.Text = "run-2", "Keeping"
			return e
		}(),
	)
}

func TestMessages(t *testing.T) {
	text := func(s, state string) UIPart { return UIPart{Type: "text", Text: s, State: state} }
	step := UIPart{Type: "step-start"}
	out := "18C, cloudy"
	want := []UIMessage{
		{ID: "run-1-input", Role: "user", Parts: []UIPart{{Type: "text", Text: "weather in Paris?"}}},
		{ID: "run-1", Role: "assistant", Metadata: Metadata{SessionID: "thread-1", RunID: "run-1", Phase: "settled", Usage: &usage}, Parts: []UIPart{
			step,
			{Type: "reasoning", ID: "reasoning-1", Text: "need the tool", State: "done"},
			text("Let me check.", "done"),
			{Type: "tool-get_weather", ToolCallID: "call_1", State: "output-available", Input: json.RawMessage(`{"city":"Paris"}`), Output: &out},
			step,
			text("It is 18C.", "done"),
		}},
		{ID: "run-2-input", Role: "user", Parts: []UIPart{{Type: "text", Text: "clean <b>up</b>"}}},
		{ID: "run-2", Role: "assistant", Metadata: Metadata{SessionID: "thread-1", RunID: "run-2"}, Parts: []UIPart{
			step,
			{Type: "tool-rm", ToolCallID: "call_1", State: "output-denied", Input: json.RawMessage(`{"path":"build"}`), Approval: &Approval{ID: "call_1"}},
			{Type: DataApprovalRequested, ID: "approval-10", Data: map[string]any{"toolCallId": "call_1", "toolName": "rm", "arguments": `{"path":"build"}`}},
			{Type: DataApprovalResolved, ID: "approval-11", Data: map[string]any{"toolCallId": "call_1", "toolName": "rm", "arguments": `{"path":"build"}`, "approved": false, "reason": "no"}},
			{Type: DataSteeringApplied, ID: "steer-13", Data: map[string]any{"text": "keep the build"}},
			step,
			text("Keeping", "streaming"),
		}},
	}
	got := Messages("thread-1", twoRuns())
	// Compared as the client reads them.
	if diff := cmp.Diff(asJSON(t, want), asJSON(t, got)); diff != "" {
		t.Errorf("messages mismatch (-want +got):\n%s", diff)
	}
	if got := Messages("thread-1", nil); got == nil || len(got) != 0 {
		t.Errorf("a thread with no events has messages %#v, want an empty list", got)
	}
}

func asJSON(t *testing.T, v any) any {
	t.Helper()
	b, err := json.Marshal(v)
	if err != nil {
		t.Fatal(err)
	}
	var out any
	if err := json.Unmarshal(b, &out); err != nil {
		t.Fatal(err)
	}
	return out
}

// TestMessagesAsTheSDKBuildsThem: each assistant message Messages builds
// is the one the AI SDK's own stream reader builds from the chunks of
// the same events.
func TestMessagesAsTheSDKBuildsThem(t *testing.T) {
	dir, err := filepath.Abs(filepath.Join("..", "testdata", "agui-client"))
	if err != nil {
		t.Fatal(err)
	}
	_, nodeErr := exec.LookPath("node")
	_, sdkErr := os.Stat(filepath.Join(dir, "node_modules", "ai"))
	if nodeErr != nil || sdkErr != nil {
		if os.Getenv("CI") != "" {
			t.Fatalf("node or the AI SDK missing under CI (%v, %v)", nodeErr, sdkErr)
		}
		t.Skip("needs node and npm ci --prefix wire/testdata/agui-client")
	}
	faulted := []contract.RunEvent{
		ev(1, 0, contract.EvRunStarted),
		with(ev(1, 1, contract.EvTextDelta), func(e *contract.RunEvent) { e.Text = "partial" }),
		with(ev(1, 2, contract.EvToolCallDelta), func(e *contract.RunEvent) { e.Call = &contract.ToolCall{ID: "c9", Name: "rm"}; e.Text = "{" }),
		with(ev(2, 0, contract.EvRunFaulted), func(e *contract.RunEvent) { e.Err = &contract.RunError{Kind: contract.KindModel, Message: "down"} }),
	}
	for _, tt := range []struct {
		name   string
		events []contract.RunEvent
	}{
		{"live", liveRun()},
		{"stored", committedOnly(liveRun())},
		{"delegated", wt.DelegatedRun()},
		{"two runs", twoRuns()},
		{"faulted mid-turn", faulted},
	} {
		t.Run(tt.name, func(t *testing.T) {
			var want []UIMessage
			for _, m := range Messages("thread-1", tt.events) {
				if m.Role == "assistant" {
					want = append(want, m)
				}
			}
			got := foldInNode(t, dir, streams(tt.events))
			if diff := cmp.Diff(asJSON(t, want), got); diff != "" {
				t.Errorf("Messages (-) and the SDK's (+) differ:\n%s", diff)
			}
		})
	}
}

// streams projects events and splits the chunks into one stream per
// assistant message.
func streams(events []contract.RunEvent) [][]Chunk {
	p := NewProjector("thread-1")
	var out [][]Chunk
	id := ""
	for _, e := range events {
		for _, c := range p.Project(e) {
			if c.Type == Start && (len(out) == 0 || c.MessageID != "" && c.MessageID != id) {
				out = append(out, nil)
				id = c.MessageID
			}
			if len(out) > 0 {
				out[len(out)-1] = append(out[len(out)-1], c)
			}
		}
	}
	return out
}

func foldInNode(t *testing.T, dir string, streams [][]Chunk) any {
	t.Helper()
	in, err := json.Marshal(streams)
	if err != nil {
		t.Fatal(err)
	}
	ctx, cancel := context.WithTimeout(context.Background(), time.Minute)
	defer cancel()
	cmd := exec.CommandContext(ctx, "node", "fold.mjs")
	cmd.Dir = dir
	cmd.Stdin = bytes.NewReader(in)
	var stderr bytes.Buffer
	cmd.Stderr = &stderr
	out, err := cmd.Output()
	if err != nil {
		t.Fatalf("node fold.mjs: %v\n%s", err, stderr.String())
	}
	var got any
	if err := json.Unmarshal(out, &got); err != nil {
		t.Fatalf("fold.mjs printed %q: %v", out, err)
	}
	return got
}
