package cadencetest_test

import (
	"fmt"

	"github.com/batonrt/baton/cadence"
	"github.com/batonrt/baton/cadence/cadencetest"
	"github.com/batonrt/baton/contract"
)

// Draw whole sessions and check a property of each: here, that every
// committed step persists exactly one record numbered after the last, and
// that no run makes more model calls than its cap. In a test, draw inside
// rapid.Check instead of with Example, and rapid shrinks what fails.
func Example() {
	cfg := cadencetest.Config().Example(1)
	rules := cadence.New(cfg)
	broken := 0
	for seed := range 20 {
		snap := cadence.InitialSnapshot("session")
		for _, sig := range cadencetest.Session(cfg, 40).Example(seed) {
			before := snap.Steps
			next, effects, err := rules.Step(snap, sig)
			if err != nil {
				continue
			}
			if p := effects[0].(*contract.Persist); p.Record.Step != before+1 {
				broken++
			}
			if next.Turns > rules.Config().MaxTurns {
				broken++
			}
			snap = next
		}
	}
	fmt.Println("broken sessions:", broken)
	// Output:
	// broken sessions: 0
}

func ExampleFitting() {
	cfg := contract.AgentConfig{Model: cadencetest.Model, Tools: cadencetest.Tools()}
	sig := cadencetest.Fitting(cfg, cadence.InitialSnapshot("s")).Example(1)
	fmt.Println(sig.SignalKind())
	// Output:
	// submitted
}
