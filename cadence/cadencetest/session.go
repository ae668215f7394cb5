package cadencetest

import (
	"github.com/batonrt/baton/cadence"
	"github.com/batonrt/baton/contract"
	"pgregory.net/rapid"
)

// Session draws up to n signals for a new session under cfg, each drawn
// by Signal from the snapshot the ones before it lead to. Rejected
// signals are kept: they are part of what a host may send.
func Session(cfg contract.AgentConfig, n int) *rapid.Generator[[]contract.Signal] {
	return rapid.Custom(func(t *rapid.T) []contract.Signal {
		rules := cadence.New(cfg)
		snap := cadence.InitialSnapshot("session")
		count := rapid.IntRange(1, max(n, 1)).Draw(t, "length")
		sigs := make([]contract.Signal, 0, count)
		for range count {
			sig := Signal(cfg, snap).Draw(t, "signal")
			sigs = append(sigs, sig)
			snap, _, _ = rules.Step(snap, sig)
		}
		return sigs
	})
}
