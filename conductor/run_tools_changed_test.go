package conductor_test

import (
	"context"
	"encoding/json"
	"errors"
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/batonrt/baton/cadence"
	"github.com/batonrt/baton/conductor"
	"github.com/batonrt/baton/contract"
	"github.com/batonrt/baton/dispatch"
	"github.com/batonrt/baton/store"
)

// TestSetRunToolsMidRun: a run's own tools swapped while it is in flight
// (by its tool shift, as a tool source whose list changed would) reach
// its next model call from revision 12 on: a tool added runs, a tool
// dropped is answered as unknown, and the calls made before the swap
// (shift itself, running, and old, queued behind it) finish as they
// were. Revision 11 refuses the swap and keeps the submit's tools. Each
// session replays as it was recorded.
func TestSetRunToolsMidRun(t *testing.T) {
	tests := []struct {
		name     string
		revision int
		swapErr  error
		offered  [][]string
		results  []contract.ToolResult
		kinds    []contract.SignalKind
	}{
		{
			name: "revision 12 swaps", revision: contract.RevisionToolsChanged,
			offered: [][]string{{"echo", "shift", "old"}, {"echo", "fresh"}, {"echo", "fresh"}},
			results: []contract.ToolResult{
				{CallID: "s1", Name: "shift", Content: "shifted"},
				{CallID: "o1", Name: "old", Content: "old ran"},
				{CallID: "f1", Name: "fresh", Content: "fresh ran"},
				{CallID: "o2", Name: "old", Content: `error: unknown tool "old"; available tools: echo, fresh`, IsError: true},
			},
			kinds: []contract.SignalKind{contract.SigSubmitted, contract.SigModelReplied, contract.SigToolsChanged, contract.SigToolSettled, contract.SigToolSettled, contract.SigModelReplied, contract.SigToolSettled, contract.SigModelReplied},
		},
		{
			name: "revision 11 keeps the submit's tools", revision: contract.RevisionCompactOnResume, swapErr: conductor.ErrRejected,
			offered: [][]string{{"echo", "shift", "old"}, {"echo", "shift", "old"}, {"echo", "shift", "old"}},
			results: []contract.ToolResult{
				{CallID: "s1", Name: "shift", Content: "shifted"},
				{CallID: "o1", Name: "old", Content: "old ran"},
				{CallID: "f1", Name: "fresh", Content: `error: unknown tool "fresh"; available tools: echo, shift, old`, IsError: true},
				{CallID: "o2", Name: "old", Content: "old ran"},
			},
			kinds: []contract.SignalKind{contract.SigSubmitted, contract.SigModelReplied, contract.SigToolSettled, contract.SigToolSettled, contract.SigModelReplied, contract.SigToolSettled, contract.SigModelReplied},
		},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			model := &fakeModel{replies: []replyFunc{
				callTools(call{"s1", "shift", `{}`}, call{"o1", "old", `{}`}),
				callTools(call{"f1", "fresh", `{}`}, call{"o2", "old", `{}`}),
				say("done"),
			}}
			st := store.NewMemory()
			deps := testDeps(model, toolBox(t, echoTool(t)))
			deps.Env.Store = st
			cfg := contract.AgentConfig{Revision: tt.revision, ToolConcurrency: 1}
			a := newAgent(t, cfg, deps)
			text := func(name, out string) dispatch.Tool {
				return rawTool(t, name, func(context.Context, json.RawMessage) (contract.ToolOutcome, error) {
					return contract.ToolOutcome{Content: out}, nil
				})
			}
			fresh := text("fresh", "fresh ran")
			var swapErr error
			shift := rawTool(t, "shift", func(ctx context.Context, _ json.RawMessage) (contract.ToolOutcome, error) {
				swapErr = a.SetRunTools(ctx, fresh)
				return contract.ToolOutcome{Content: "shifted"}, nil
			})
			snap, err := a.Submit(ctxT(t), conductor.Input{Text: "go", Tools: []dispatch.Tool{shift, text("old", "old ran")}})
			if err != nil {
				t.Fatal(err)
			}
			if !errors.Is(swapErr, tt.swapErr) {
				t.Errorf("SetRunTools: %v, want %v", swapErr, tt.swapErr)
			}
			var offered [][]string
			for _, req := range model.Requests() {
				var names []string
				for _, d := range req.Tools {
					names = append(names, d.Name)
				}
				offered = append(offered, names)
			}
			if diff := cmp.Diff(tt.offered, offered); diff != "" {
				t.Errorf("tools offered to each model call mismatch (-want +got):\n%s", diff)
			}
			if diff := cmp.Diff(tt.results, results(snap)); diff != "" {
				t.Errorf("results mismatch (-want +got):\n%s", diff)
			}
			records, err := st.Records(ctxT(t), "session_test")
			if err != nil {
				t.Fatal(err)
			}
			var kinds []contract.SignalKind
			for _, r := range records {
				kinds = append(kinds, r.Signal.SignalKind())
			}
			if diff := cmp.Diff(tt.kinds, kinds); diff != "" {
				t.Errorf("recorded signals mismatch (-want +got):\n%s", diff)
			}
			if err := store.Replay(ctxT(t), st, cadence.New(a.Config()), "session_test"); err != nil {
				t.Errorf("replay: %v", err)
			}
		})
	}
}

// TestSetRunToolsRefusals: with no run in flight there is nothing to
// swap, and a done context starts nothing.
func TestSetRunToolsRefusals(t *testing.T) {
	a := newAgent(t, contract.AgentConfig{}, testDeps(&fakeModel{}, toolBox(t, echoTool(t))))
	if err := a.SetRunTools(ctxT(t), echoTool(t)); !errors.Is(err, conductor.ErrNoRun) {
		t.Errorf("no run: %v, want ErrNoRun", err)
	}
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	if err := a.SetRunTools(ctx); !errors.Is(err, context.Canceled) {
		t.Errorf("done context: %v, want context.Canceled", err)
	}
}
