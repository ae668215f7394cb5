package cadence_test

import (
	"errors"
	"testing"

	"github.com/batonrt/baton/cadence"
	"github.com/batonrt/baton/contract"
)

// A session replays under the config its submits recorded, whatever rules
// the replaying process holds; without a recorded config, other rules
// diverge where the config matters (here, token estimates by model). The
// session is one recorded before rules revisions: its config names none,
// so it replays under revision 0, with its tool_started record.
func TestReplayUsesTheRecordedConfig(t *testing.T) {
	ran := contract.AgentConfig{Model: "gpt-4o", Tools: []contract.ToolDescriptor{{Name: "echo"}}}
	record := func(withConfig bool) []contract.Record {
		r := cadence.New(ran)
		s := cadence.InitialSnapshot("s")
		sub := contract.Submitted{RunID: "r1", Input: []contract.Turn{contract.UserText("say hello to the whole wide world")}, At: 1}
		if withConfig {
			cfg := ran
			sub.Config = &cfg
		}
		var recs []contract.Record
		for _, sig := range []contract.Signal{
			sub,
			contract.ModelReplied{Reply: contract.Turn{Blocks: []contract.Block{contract.CallBlock(contract.ToolCall{ID: "c1", Name: "echo", Arguments: `{"text":"hello, world"}`})}}, At: 2},
			contract.ToolStarted{CallID: "c1", At: 3},
			contract.ToolSettled{CallID: "c1", Outcome: contract.ToolOutcome{Content: "hello, world, and everyone in it"}, At: 4},
		} {
			var effects []contract.Effect
			var err error
			if s, effects, err = r.Step(s, sig); err != nil {
				t.Fatal(err)
			}
			recs = append(recs, effects[0].(*contract.Persist).Record)
		}
		return recs
	}
	other := cadence.New(contract.AgentConfig{Model: "replay"})
	if _, err := other.Replay(cadence.InitialSnapshot("s"), record(true)); err != nil {
		t.Fatalf("recorded config: %v", err)
	}
	if _, err := other.Replay(cadence.InitialSnapshot("s"), record(false)); !errors.Is(err, cadence.ErrNondeterministic) {
		t.Fatalf("no recorded config, other rules: got %v, want a divergence", err)
	}
}
