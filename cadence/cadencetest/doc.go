// Package cadencetest holds pgregory.net/rapid generators for cadence's
// inputs: agent configurations, scripted model replies, tool outcomes, and
// signals, both hostile ones and a "smart" generator that mostly draws
// signals fitting the snapshot's phase (answers for the calls actually
// pending, a reply while the model is awaited) so random runs go deep. Use
// them to write your own properties of Step; it imports contract,
// compactor and cadence of ours.
//
// A state-machine property in rapid's style, with an "" action that only
// checks invariants:
//
//	func TestMyProperty(t *testing.T) {
//		rapid.Check(t, func(t *rapid.T) {
//			cfg := cadencetest.Config().Draw(t, "config")
//			rules := cadence.New(cfg)
//			snap := cadence.InitialSnapshot("s")
//			t.Repeat(map[string]func(*rapid.T){
//				"step": func(t *rapid.T) {
//					sig := cadencetest.Signal(cfg, snap).Draw(t, "signal")
//					snap, _, _ = rules.Step(snap, sig)
//				},
//				"": func(t *rapid.T) {
//					if snap.Turns > rules.Config().MaxTurns {
//						t.Fatalf("%d model calls, cap %d", snap.Turns, rules.Config().MaxTurns)
//					}
//				},
//			})
//		})
//	}
//
// Session draws a whole sequence at once, for properties over folds.
package cadencetest
