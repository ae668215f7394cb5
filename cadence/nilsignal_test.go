package cadence_test

import (
	"testing"

	"github.com/batonrt/baton/cadence"
	"github.com/batonrt/baton/contract"
)

// steps applies signals that must all be accepted and returns the last
// step's effects.
func steps(t *testing.T, r *cadence.Rules, s contract.RunSnapshot, sigs ...contract.Signal) (contract.RunSnapshot, []contract.Effect) {
	t.Helper()
	var effects []contract.Effect
	for _, sig := range sigs {
		s, effects = r.Step(s, sig)
		if _, ok := effects[0].(contract.Persist); !ok {
			t.Fatalf("%s rejected: %s", sig.SignalKind(), cadence.Summarize(effects))
		}
	}
	return s, effects
}

func TestStepRejectsTypedNilSignals(t *testing.T) {
	r := echoRules()
	idle := cadence.InitialSnapshot("s1")
	busy, _ := steps(t, r, idle, contract.Submitted{RunID: "r1", Input: []contract.Turn{contract.UserText("hi")}, At: 1})
	for _, sig := range []contract.Signal{(*contract.Submitted)(nil), (*contract.AbortRequested)(nil), (*contract.Resumed)(nil)} {
		for _, s := range []contract.RunSnapshot{idle, busy} {
			next, effects := r.Step(s, sig)
			if len(effects) != 1 || next.Steps != s.Steps {
				t.Fatalf("typed nil %T in %s: %s", sig, s.Phase, cadence.Summarize(effects))
			}
			if p, ok := effects[0].(contract.Publish); !ok || p.Event.Kind != contract.EvSignalRejected {
				t.Fatalf("typed nil %T in %s: %s", sig, s.Phase, cadence.Summarize(effects))
			}
		}
	}
}
