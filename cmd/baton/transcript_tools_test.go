package main

import (
	"strings"
	"testing"

	"github.com/batonrt/baton/cadence"
	"github.com/batonrt/baton/contract"
)

// TestLogShowsToolsChanged: a run whose own tools changed while it went
// on says so in the log, naming the tools added, dropped and redescribed,
// at the step it happened.
func TestLogShowsToolsChanged(t *testing.T) {
	cfg := contract.AgentConfig{Model: "m", Revision: contract.RevisionToolsChanged}.WithDefaults()
	rules := cadence.New(cfg)
	snap := cadence.InitialSnapshot("s")
	signals := []contract.Signal{
		contract.Submitted{RunID: "r1", Input: []contract.Turn{contract.UserText("go")}, Tools: []contract.ToolDescriptor{{Name: "old"}, {Name: "shift"}, {Name: "keep"}}, Config: &cfg},
		contract.ToolsChanged{Tools: []contract.ToolDescriptor{{Name: "keep", Description: "now described"}, {Name: "fresh"}}},
		contract.ToolsChanged{Tools: []contract.ToolDescriptor{}},
	}
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
	want := "·· the run's tools changed: added fresh; dropped old, shift; redescribed keep\n" +
		"·· the run's tools changed: dropped keep, fresh\n"
	if !strings.Contains(out.String(), want) {
		t.Errorf("log lacks\n%s\nin\n%s", want, out.String())
	}
}
