package cadence_test

import (
	"testing"

	"github.com/batonrt/baton/cadence"
	"github.com/batonrt/baton/cadence/cadencetest"
	"github.com/batonrt/baton/contract"
	"pgregory.net/rapid"
)

// waitsFor reports whether the snapshot has a call with the id in the
// state, in a run in flight.
func waitsFor(s contract.RunSnapshot, id string, state contract.CallState) bool {
	if !s.Phase.InFlight() {
		return false
	}
	for _, p := range s.Pending {
		if p.Call.ID == id && p.State == state {
			return true
		}
	}
	return false
}

// strayAnswer draws an answer or an approval for a call id that may be
// pending, already answered, from an earlier batch, or never seen.
func strayAnswer(s contract.RunSnapshot, seen []string) *rapid.Generator[contract.Signal] {
	return rapid.Custom(func(t *rapid.T) contract.Signal {
		ids := append([]string{"nope", ""}, seen...)
		for _, p := range s.Pending {
			ids = append(ids, p.Call.ID)
		}
		id := rapid.SampledFrom(ids).Draw(t, "id")
		if rapid.Bool().Draw(t, "approval") {
			return contract.ApprovalResolved{CallID: id, Approved: rapid.Bool().Draw(t, "approved"), Scope: contract.ScopeSession, At: cadencetest.At(s)}
		}
		return contract.HumanAnswered{CallID: id, Answer: "stray", At: cadencetest.At(s)}
	})
}

// TestAnswersFitOnlyOpenCalls: an answer is accepted exactly when its call
// waits for a person, an approval exactly when its call waits for one;
// for an unknown or already answered call both are rejected and change
// nothing.
func TestAnswersFitOnlyOpenCalls(t *testing.T) {
	rapid.Check(t, func(t *rapid.T) {
		cfg := cadencetest.Config().Draw(t, "config")
		rules := cadence.New(cfg)
		snap := cadence.InitialSnapshot("s")
		var seen []string
		for range rapid.IntRange(1, 60).Draw(t, "steps") {
			sig := cadencetest.Signal(cfg, snap).Draw(t, "signal")
			if rapid.IntRange(0, 2).Draw(t, "stray") == 0 {
				sig = strayAnswer(snap, seen).Draw(t, "stray_signal")
			}
			want := true
			switch sig := sig.(type) {
			case contract.HumanAnswered:
				want = waitsFor(snap, sig.CallID, contract.CallAwaitingHuman)
			case contract.ApprovalResolved:
				want = waitsFor(snap, sig.CallID, contract.CallAwaitingApproval)
			default:
				next, _, _ := rules.Step(snap, sig)
				snap = next
				continue
			}
			next, effects, err := rules.Step(snap, sig)
			accepted := err == nil
			if accepted != want {
				t.Fatalf("%s in %s: accepted=%v, want %v (%v, %s)", sig.SignalKind(), snap.Phase, accepted, want, err, cadence.Summarize(effects))
			}
			if !accepted && next.Steps != snap.Steps {
				t.Fatalf("a rejected %s changed the snapshot", sig.SignalKind())
			}
			for _, p := range snap.Pending {
				seen = append(seen, p.Call.ID)
			}
			snap = next
		}
	})
}

// TestEveryQuestionGetsOneResult: each question asked gets exactly one
// tool result before the model is called again or the run ends, and an
// answered question's result is the answer, whatever order the answers,
// steering, aborts and resumes come in.
func TestEveryQuestionGetsOneResult(t *testing.T) {
	rapid.Check(t, func(t *rapid.T) {
		cfg := cadencetest.Config().Draw(t, "config")
		rules := cadence.New(cfg)
		snap := cadence.InitialSnapshot("s")
		results := map[string]int{}
		answers := map[string]string{}
		for range rapid.IntRange(1, 80).Draw(t, "steps") {
			sig := cadencetest.Signal(cfg, snap).Draw(t, "signal")
			if a, ok := sig.(contract.HumanAnswered); ok && waitsFor(snap, a.CallID, contract.CallAwaitingHuman) {
				answers[a.CallID] = a.Answer
			}
			next, effects, _ := rules.Step(snap, sig)
			for _, e := range effects {
				switch e := e.(type) {
				case *contract.Publish:
					ev := e.Event
					switch {
					case ev.Kind == contract.EvQuestionAsked:
						if _, dup := results[ev.Call.ID]; dup {
							t.Fatalf("question %s asked twice", ev.Call.ID)
						}
						results[ev.Call.ID] = 0
					case ev.Kind == contract.EvToolResult:
						n, asked := results[ev.Call.ID]
						if !asked {
							continue
						}
						if n > 0 {
							t.Fatalf("question %s got a second result %q", ev.Call.ID, ev.Result.Content)
						}
						results[ev.Call.ID] = 1
						if a, ok := answers[ev.Call.ID]; ok && (ev.Result.Content != a || ev.Result.IsError) {
							t.Fatalf("question %s answered %q got result %q", ev.Call.ID, a, ev.Result.Content)
						}
					}
				case *contract.InvokeModel:
					checkAllAnswered(t, results, answers, next)
				}
			}
			if next.Phase.Terminal() {
				checkAllAnswered(t, results, answers, next)
			}
			snap = next
		}
	})
}

// checkAllAnswered fails unless every question asked has its one result,
// then forgets them: call ids are unique within a batch only.
func checkAllAnswered(t *rapid.T, results map[string]int, answers map[string]string, s contract.RunSnapshot) {
	if len(s.Pending) > 0 {
		return
	}
	for id, n := range results {
		if n != 1 {
			t.Fatalf("question %s has %d results when its batch closed", id, n)
		}
		delete(results, id)
	}
	clear(answers)
}
