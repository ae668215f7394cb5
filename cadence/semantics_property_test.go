package cadence_test

import (
	"fmt"
	"testing"

	"github.com/batonrt/baton/cadence"
	"github.com/batonrt/baton/cadence/cadencetest"
	"github.com/batonrt/baton/contract"
	"pgregory.net/rapid"
)

// Properties of the revision 1 rules: failed runs stay out of later model
// calls, a retrieval failure always faults, and the no_progress guard
// fires within its threshold.

func revisionOne(t *rapid.T) contract.AgentConfig {
	cfg := cadencetest.Config().Draw(t, "config")
	cfg.Revision = 1
	cfg.FailedRuns = rapid.SampledFrom([]contract.FailedRunsPolicy{contract.FailedRunsDefault, contract.FailedRunsExclude}).Draw(t, "failed_runs")
	return cfg
}

// stepped applies sig and reports the effects when it was committed.
func stepped(rules *cadence.Rules, s contract.RunSnapshot, sig contract.Signal) (contract.RunSnapshot, []contract.Effect, bool) {
	next, effects, err := rules.Step(s, sig)
	if err != nil {
		return s, nil, false
	}
	return next, effects, true
}

func TestFailedRunsNeverReachALaterModelCall(t *testing.T) {
	rapid.Check(t, func(t *rapid.T) {
		cfg := revisionOne(t)
		rules := cadence.New(cfg)
		s := cadence.InitialSnapshot("s")
		for range rapid.IntRange(1, 80).Draw(t, "steps") {
			sig := cadencetest.Signal(cfg, s).Draw(t, "signal")
			next, effects, ok := stepped(rules, s, sig)
			if !ok {
				continue
			}
			for _, e := range effects {
				im, ok := e.(*contract.InvokeModel)
				if !ok {
					continue
				}
				for i, turn := range im.Request.History.Turns() {
					if turn.Excluded {
						t.Fatalf("invoke_model turn %d carries excluded turn %d", im.Request.Turn, i)
					}
				}
				if got, want := im.Request.History.Len(), next.History.Len()-next.Excluded; got != want {
					t.Fatalf("invoke_model sees %d turns, history %d with %d excluded", got, next.History.Len(), next.Excluded)
				}
			}
			if next.Phase == contract.PhaseFaulted && s.Phase != contract.PhaseFaulted {
				checkFailedRunExcluded(t, next)
			}
			if _, compacted := sig.(contract.Compacted); !compacted && next.Excluded < s.Excluded {
				t.Fatalf("excluded turns went from %d to %d on %s", s.Excluded, next.Excluded, sig.SignalKind())
			}
			s = next
		}
	})
}

// checkFailedRunExcluded: every turn of the run that just faulted is
// excluded, and one note that is not excluded ends history.
func checkFailedRunExcluded(t *rapid.T, s contract.RunSnapshot) {
	turns := s.History.Turns()
	last := turns[len(turns)-1]
	if last.Mark != contract.MarkRunFailed || last.Excluded {
		t.Fatalf("faulted run does not end with a visible note: %+v", last)
	}
	for i := s.RunFrom; i < len(turns)-1; i++ {
		if !turns[i].Excluded {
			t.Fatalf("turn %d of the failed run (from %d) is not excluded", i, s.RunFrom)
		}
	}
	n := 0
	for _, turn := range turns {
		if turn.Excluded {
			n++
		}
	}
	if n != s.Excluded {
		t.Fatalf("snapshot counts %d excluded turns, history has %d", s.Excluded, n)
	}
}

func TestRetrievalFailureAlwaysFaults(t *testing.T) {
	rapid.Check(t, func(t *rapid.T) {
		cfg := cadencetest.Config().Draw(t, "config")
		rules := cadence.New(cfg)
		s := cadence.InitialSnapshot("s")
		for range rapid.IntRange(0, 40).Draw(t, "before") {
			s, _, _ = stepped(rules, s, cadencetest.Signal(cfg, s).Draw(t, "signal"))
		}
		for s.Phase.InFlight() {
			s, _, _ = stepped(rules, s, contract.AbortRequested{Mode: contract.AbortNow, At: cadencetest.At(s)})
		}
		sub := cadencetest.Submit(s).Draw(t, "submit").(contract.Submitted)
		sub.RetrievalError = rapid.StringMatching(`[a-z ]{1,20}`).Draw(t, "error")
		next, effects, err := rules.Step(s, sub)
		if err != nil {
			t.Fatalf("submit with a retrieval error was rejected: %v", err)
		}
		if next.Phase != contract.PhaseFaulted || next.Err == nil || next.Err.Kind != contract.KindRetrieval {
			t.Fatalf("phase %s error %v, want faulted with kind retrieval", next.Phase, next.Err)
		}
		for _, e := range effects {
			if e.EffectKind() == contract.EffInvokeModel || e.EffectKind() == contract.EffRunTool {
				t.Fatalf("a failed retrieval still emitted %s", e.EffectKind())
			}
		}
	})
}

// TestNoProgressFiresWithinThreshold: a model cycling through k calls
// whose tools always answer the same is stopped with kind loop once
// Critical results in a row repeated earlier ones, whatever the cycle and
// batch size; and no random session ever calls the model while the stall
// is at the critical threshold.
func TestNoProgressFiresWithinThreshold(t *testing.T) {
	rapid.Check(t, func(t *rapid.T) {
		cfg := revisionOne(t)
		cfg.MaxTurns = 100
		cfg.Compaction.Disabled = true
		rules := cadence.New(cfg)
		k := rapid.IntRange(1, 4).Draw(t, "cycle")
		perReply := rapid.IntRange(1, 3).Draw(t, "per_reply")
		s, _, _ := stepped(rules, cadence.InitialSnapshot("s"), contract.Submitted{RunID: "r", Input: []contract.Turn{contract.UserText("go")}, At: 1})
		calls := 0
		for s.Phase == contract.PhaseAwaitingModel {
			var blocks []contract.Block
			for range perReply {
				blocks = append(blocks, contract.CallBlock(contract.ToolCall{ID: fmt.Sprintf("c%d", calls), Name: "echo", Arguments: fmt.Sprintf(`{"n":%d}`, calls%k)}))
				calls++
			}
			s, _, _ = stepped(rules, s, contract.ModelReplied{Reply: contract.Turn{Role: contract.RoleAssistant, Blocks: blocks}, At: cadencetest.At(s)})
			for _, p := range s.Pending {
				if s.Phase != contract.PhaseAwaitingTools {
					break
				}
				s, _, _ = stepped(rules, s, contract.ToolSettled{CallID: p.Call.ID, Outcome: contract.ToolOutcome{Content: "same for " + p.Call.Arguments}, At: cadencetest.At(s)})
			}
		}
		if s.Err == nil || s.Err.Kind != contract.KindLoop {
			t.Fatalf("run ended %s with %v, want kind loop", s.Phase, s.Err)
		}
		if limit := k + cfg.LoopGuard.Critical + perReply; calls > limit {
			t.Fatalf("%d calls before the guard fired; cycle %d, critical %d, per reply %d", calls, k, cfg.LoopGuard.Critical, perReply)
		}
	})
	rapid.Check(t, func(t *rapid.T) {
		cfg := revisionOne(t)
		rules := cadence.New(cfg)
		s := cadence.InitialSnapshot("s")
		for range rapid.IntRange(1, 80).Draw(t, "steps") {
			next, effects, ok := stepped(rules, s, cadencetest.Signal(cfg, s).Draw(t, "signal"))
			if !ok {
				continue
			}
			stall := max(next.Progress.Repeats, next.Progress.StaleRounds)
			for _, e := range effects {
				if e.EffectKind() == contract.EffInvokeModel && stall >= cfg.LoopGuard.Critical {
					t.Fatalf("model invoked with a stall of %d, critical %d", stall, cfg.LoopGuard.Critical)
				}
			}
			s = next
		}
	})
}
