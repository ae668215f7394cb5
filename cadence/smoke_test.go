package cadence_test

import (
	"testing"

	"github.com/batonrt/baton/cadence"
	"github.com/batonrt/baton/contract"
)

func TestSmokeToolRound(t *testing.T) {
	r := cadence.New(contract.AgentConfig{Model: "gpt-4o", Tools: []contract.ToolDescriptor{{Name: "echo"}}})
	s := cadence.InitialSnapshot("s1")
	step := func(sig contract.Signal) []contract.Effect {
		var eff []contract.Effect
		s, eff = r.Step(s, sig)
		t.Logf("%s -> phase %s: %s", sig.SignalKind(), s.Phase, cadence.Summarize(eff))
		return eff
	}
	step(contract.Submitted{RunID: "r1", Input: []contract.Turn{contract.UserText("hi")}, At: 1})
	step(contract.ModelReplied{Reply: contract.Turn{Blocks: []contract.Block{
		contract.CallBlock(contract.ToolCall{ID: "a", Name: "echo", Arguments: `{"x":1}`}),
		contract.CallBlock(contract.ToolCall{ID: "b", Name: "nope", Arguments: `{}`}),
		contract.CallBlock(contract.ToolCall{ID: "c", Name: "echo", Arguments: `{bad`}),
	}}, At: 2})
	step(contract.ToolStarted{CallID: "a", At: 3})
	step(contract.ToolSettled{CallID: "a", Outcome: contract.ToolOutcome{Content: "1"}, At: 4})
	step(contract.ModelReplied{Reply: contract.Turn{Blocks: []contract.Block{contract.TextBlock("done")}}, At: 5})
	if s.Phase != contract.PhaseSettled {
		t.Fatalf("phase %s", s.Phase)
	}
	if got := s.History.Len(); got != 4 {
		t.Fatalf("history %d", got)
	}
}
