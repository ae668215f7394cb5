package cadence_test

import (
	"strings"
	"testing"

	"github.com/batonrt/baton/cadence"
	"github.com/batonrt/baton/contract"
)

// TestResumeWhileCompactingHonoursAWaitingAbort: an abort that waits for
// the compaction's answer ends the run on resume, like one waiting for a
// model reply, instead of asking for the summary again.
func TestResumeWhileCompactingHonoursAWaitingAbort(t *testing.T) {
	r := cadence.New(contract.AgentConfig{Model: "scripted", Tools: []contract.ToolDescriptor{{Name: "echo"}},
		Compaction: contract.CompactionPolicy{ContextWindow: 400, TriggerRatio: 0.5, KeepRecent: 2}})
	snap, _ := steps(t, r, cadence.InitialSnapshot("s1"),
		contract.Submitted{RunID: "r1", Input: []contract.Turn{contract.UserText(strings.Repeat("lorem ", 600))}, At: 1},
		callReply("c1"),
		contract.ToolSettled{CallID: "c1", Outcome: contract.ToolOutcome{Content: strings.Repeat("lorem ", 400)}, At: 3},
	)
	if snap.Phase != contract.PhaseCompacting {
		t.Fatalf("phase %s, want compacting", snap.Phase)
	}
	snap, _ = steps(t, r, snap, contract.AbortRequested{Mode: contract.AbortAfterReply, Reason: "stop", At: 4})
	snap, effects := steps(t, r, snap, contract.Resumed{At: 5})
	for _, e := range effects {
		if _, ok := e.(*contract.Compact); ok {
			t.Errorf("resume asked for the compaction the abort was waiting to end: %s", cadence.Summarize(effects))
		}
	}
	if snap.Phase != contract.PhaseFaulted || snap.Err == nil || snap.Err.Kind != contract.KindAborted {
		t.Fatalf("phase %s err %v, want faulted aborted", snap.Phase, snap.Err)
	}
}
