package main

import (
	"strings"
	"testing"

	"github.com/batonrt/baton/cadence"
	"github.com/batonrt/baton/contract"
)

// TestLogShowsTurnsAddedWithARewrite: a step that rewrites history
// (a summary, its fallback, a failed run left out) may also add turns
// the model reads or that answer its calls: steering that waited for
// the summary, and the results of calls a fault cut short. The log
// shows them, after the line about the rewrite.
func TestLogShowsTurnsAddedWithARewrite(t *testing.T) {
	call := func(id string) contract.Signal {
		return contract.ModelReplied{Reply: contract.Turn{Role: contract.RoleAssistant, Blocks: []contract.Block{
			contract.CallBlock(contract.ToolCall{ID: id, Name: "echo", Arguments: "{}"}),
		}}}
	}
	settled := func(id string, n int) contract.Signal {
		return contract.ToolSettled{CallID: id, Outcome: contract.ToolOutcome{Content: strings.Repeat("lorem ", n)}}
	}
	// The second result brings history over the threshold; the cut falls
	// after the first, whose output the fallback can drop.
	compacting := []contract.Signal{call("c1"), settled("c1", 60), call("c2"), settled("c2", 200),
		contract.Steered{Input: []contract.Turn{contract.UserText("steered while compacting")}}}
	tests := []struct {
		name    string
		signals []contract.Signal
		want    []string
	}{
		{
			name:    "steering delivered with a summary",
			signals: append(compacting, contract.Compacted{Cut: 3, Summary: "the user sent a long text"}),
			want:    []string{"·· compacted 3 turns into a summary: the user sent a long text", "steer: steered while compacting"},
		},
		{
			name:    "steering delivered with the fallback",
			signals: append(compacting, contract.CompactionFailed{Reason: "busy"}),
			want:    []string{"!! compaction failed: busy", "steer: steered while compacting"},
		},
		{
			name:    "results of calls a fault cut short",
			signals: []contract.Signal{call("c1"), contract.AbortRequested{Mode: contract.AbortNow, Reason: "stop"}},
			want:    []string{"!! abort (now): stop", "✗ #1 echo: aborted: run aborted: stop", "·· the failed run's 3 turns are left out of later model calls"},
		},
		{
			name:    "a run stopped before its first model call",
			signals: []contract.Signal{contract.AbortRequested{Mode: contract.AbortNow, Reason: "stop"}},
			want:    []string{"!! abort (now): stop", "·· the failed run's 1 turn is left out of later model calls"},
		},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			cfg := contract.AgentConfig{Model: "m", Revision: contract.CurrentRevision, Tools: []contract.ToolDescriptor{{Name: "echo"}}}
			cfg.Compaction = contract.CompactionPolicy{ContextWindow: 400, TriggerRatio: 0.5, KeepRecent: 2}
			cfg = cfg.WithDefaults()
			rules := cadence.New(cfg)
			snap := cadence.InitialSnapshot("s")
			signals := append([]contract.Signal{contract.Submitted{RunID: "r1", Input: []contract.Turn{contract.UserText("echo twice")}, Config: &cfg}}, tt.signals...)
			var records []contract.Record
			for _, sig := range signals {
				next, effects, err := rules.Step(snap, sig)
				if err != nil {
					t.Fatalf("%s: %v", sig.SignalKind(), err)
				}
				records = append(records, effects[0].(*contract.Persist).Record)
				snap = next
			}
			var out strings.Builder
			if err := writeTranscript(&out, rules, "s", records); err != nil {
				t.Fatal(err)
			}
			log := out.String()
			at := 0
			for _, want := range tt.want {
				i := strings.Index(log[at:], want)
				if i < 0 {
					t.Fatalf("log lacks %q after byte %d:\n%s", want, at, log)
				}
				at += i + len(want)
			}
		})
	}
}
