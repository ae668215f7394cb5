package cadence_test

import (
	"errors"
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
		var err error
		s, effects, err = r.Step(s, sig)
		if err != nil {
			t.Fatal(err)
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
			next, effects, err := r.Step(s, sig)
			if !errors.Is(err, cadence.ErrRejected) || len(effects) != 0 || next.Steps != s.Steps {
				t.Fatalf("typed nil %T in %s: %v, %s", sig, s.Phase, err, cadence.Summarize(effects))
			}
		}
	}
}
