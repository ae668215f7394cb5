package conductor_test

import (
	"context"
	"encoding/json"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/batonrt/baton/conductor"
	"github.com/batonrt/baton/contract"
)

// TestToolResultEventSaysOutputWasCut: a tool_result event carries
// Truncated when the tool said it cut its output or the output cap cut
// it, so a client can show that the model saw only part of it; the
// events read back from the store say the same.
func TestToolResultEventSaysOutputWasCut(t *testing.T) {
	const limit = 1000
	tests := []struct {
		name    string
		outcome contract.ToolOutcome
		want    bool
	}{
		{"whole output", contract.ToolOutcome{Content: "short"}, false},
		{"cut by the tool", contract.ToolOutcome{Content: "first lines", Truncated: true}, true},
		{"cut by the output cap", contract.ToolOutcome{Content: strings.Repeat("a", 4*limit)}, true},
		{"an error cut by the tool", contract.ToolOutcome{Content: "error: exit 1", IsError: true, Truncated: true}, true},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			tool := rawTool(t, "out", func(context.Context, json.RawMessage) (contract.ToolOutcome, error) {
				return tt.outcome, nil
			})
			m := &fakeModel{replies: []replyFunc{callTools(call{"c1", "out", `{}`}), say("done")}}
			deps := testDeps(m, toolBox(t, tool))
			deps.Tools.OutputCap = limit
			a := newAgent(t, contract.AgentConfig{}, deps)
			var live []bool
			unsub := a.Subscribe(func(ev contract.RunEvent) {
				if ev.Kind == contract.EvToolResult {
					live = append(live, ev.Truncated)
				}
			})
			if _, err := a.Submit(ctxT(t), conductor.Text("go")); err != nil {
				t.Fatal(err)
			}
			if err := a.Flush(ctxT(t)); err != nil {
				t.Fatal(err)
			}
			unsub()
			evs, err := a.EventsSince(ctxT(t), 0)
			if err != nil {
				t.Fatal(err)
			}
			var stored []bool
			for _, ev := range evs {
				if ev.Kind == contract.EvToolResult {
					stored = append(stored, ev.Truncated)
				}
			}
			want := []bool{tt.want}
			if diff := cmp.Diff(want, stored); diff != "" {
				t.Errorf("stored tool_result Truncated mismatch (-want +got):\n%s", diff)
			}
			if diff := cmp.Diff(want, live); diff != "" {
				t.Errorf("live tool_result Truncated mismatch (-want +got):\n%s", diff)
			}
		})
	}
}
