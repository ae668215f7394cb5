package cadence_test

import (
	"strings"
	"testing"

	"github.com/batonrt/baton/cadence"
	"github.com/batonrt/baton/contract"
)

// stepAll feeds signals in order and fails on a rejection; it returns the
// final snapshot and every effect summary.
func stepAll(t *testing.T, r *cadence.Rules, sigs ...contract.Signal) (contract.RunSnapshot, []string) {
	t.Helper()
	s := cadence.InitialSnapshot("s")
	var steps []string
	for _, sig := range sigs {
		next, effects, err := r.Step(s, sig)
		if err != nil {
			t.Fatalf("%s: %v", sig.SignalKind(), err)
		}
		steps = append(steps, cadence.Summarize(effects))
		s = next
	}
	return s, steps
}

func hasEffect(steps []string, kind string) bool {
	for _, s := range steps {
		if strings.HasPrefix(s, kind+" ") || strings.Contains(s, "; "+kind+" ") {
			return true
		}
	}
	return false
}

// TestOverflowAtTheCapFaultsWithTheOverflow: the last model call a run
// may make fails with a context overflow. No model call can follow, so
// compacting history is a summary call that is never used: the run must
// fault with the model's failure (kind model, the overflow its cause), as
// it does when compaction cannot help, not ask for a summary and then
// fault as max_turns, hiding the cause.
func TestOverflowAtTheCapFaultsWithTheOverflow(t *testing.T) {
	r := cadence.New(contract.AgentConfig{Model: "scripted", Tools: []contract.ToolDescriptor{{Name: "echo"}},
		MaxTurns: 2, Compaction: contract.CompactionPolicy{KeepRecent: 1}, Revision: contract.CurrentRevision})
	call := contract.Turn{Role: contract.RoleAssistant, Blocks: []contract.Block{contract.CallBlock(contract.ToolCall{ID: "c1", Name: "echo", Arguments: "{}"})}}
	s, steps := stepAll(t, r,
		contract.Submitted{RunID: "r", Input: []contract.Turn{contract.UserText("go")}, At: 1},
		contract.ModelReplied{Reply: call, At: 2},
		contract.ToolSettled{CallID: "c1", Outcome: contract.ToolOutcome{Content: "out"}, At: 3},
		contract.ModelFailed{Failure: contract.FailContextOverflow, Message: "too long", At: 4},
	)
	if hasEffect(steps, "compact") {
		t.Errorf("a summary was asked for after the run's last model call: %q", steps[len(steps)-1])
	}
	if s.Phase == contract.PhaseCompacting {
		s, _, _ = r.Step(s, contract.Compacted{Cut: 1, Summary: "s", At: 5})
	}
	if s.Err == nil || s.Err.Kind != contract.KindModel {
		t.Fatalf("run ended %s with %v, want a model fault naming the overflow", s.Phase, s.Err)
	}
}

// TestOutputFailureAtTheCapFaultsAsOutput: the run's last allowed model
// call answers with JSON that does not match the output schema. Retries
// are left, but no model call may follow: the run must fault with kind
// output (errors.Is ErrOutput), the answer's real failure, not max_turns,
// and no retry note the model never reads is added to history.
func TestOutputFailureAtTheCapFaultsAsOutput(t *testing.T) {
	out := &contract.OutputSchema{Name: "answer", Schema: []byte(`{"type":"object"}`), MaxRetries: 2}
	r := cadence.New(contract.AgentConfig{Model: "m", Output: out, MaxTurns: 1, Revision: contract.CurrentRevision})
	bad := contract.ModelReplied{Reply: contract.Turn{Role: contract.RoleAssistant, Blocks: []contract.Block{contract.TextBlock("not json")}}, OutputError: "not JSON", At: 2}
	s, _ := stepAll(t, r, contract.Submitted{RunID: "r", Input: []contract.Turn{contract.UserText("go")}, At: 1}, bad)
	if s.Err == nil || s.Err.Kind != contract.KindOutput {
		t.Fatalf("run ended %s with %v, want kind output", s.Phase, s.Err)
	}
	for _, turn := range s.History.Turns() {
		if turn.Mark == contract.MarkOutputRetry {
			t.Errorf("retry note added though no model call may follow: %q", turn.Text())
		}
	}
}
