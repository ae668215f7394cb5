package conductor_test

import (
	"context"
	"errors"
	"testing"

	"github.com/batonrt/baton/conductor"
	"github.com/batonrt/baton/contract"
	"github.com/batonrt/baton/dispatch"
)

// TestInputWithANilToolIsAConfigError: input for the run in flight that
// brings a nil tool (an unset variable) is refused as a config error, as
// a tool the run does not offer is, rather than panic; the run goes on
// and settles.
func TestInputWithANilToolIsAConfigError(t *testing.T) {
	in := conductor.Input{Text: "and this", Tools: []dispatch.Tool{nil}}
	for _, tc := range []struct {
		name  string
		input func(context.Context, *conductor.Agent) error
	}{
		{"Steer", func(ctx context.Context, a *conductor.Agent) error { return a.Steer(ctx, in) }},
		{"FollowUp", func(ctx context.Context, a *conductor.Agent) error { return a.FollowUp(ctx, in) }},
		{"Submit", func(ctx context.Context, a *conductor.Agent) error { _, err := a.Submit(ctx, in); return err }},
	} {
		t.Run(tc.name, func(t *testing.T) {
			ctx := ctxT(t)
			release := make(chan struct{})
			m := &fakeModel{replies: []replyFunc{blockUntil(release, say("done"))}}
			a := newAgent(t, contract.AgentConfig{}, testDeps(m, toolBox(t)))
			done := submitAsync(a, "go")
			waitPhase(t, a, contract.PhaseAwaitingModel)
			err := tc.input(ctx, a)
			if !errors.Is(err, contract.ErrConfig) {
				t.Errorf("input with a nil tool: %v, want a config error", err)
			}
			close(release)
			if res := <-done; res.err != nil || res.snap.Phase != contract.PhaseSettled {
				t.Errorf("run ended %s with %v, want it settled", res.snap.Phase, res.err)
			}
		})
	}
}
