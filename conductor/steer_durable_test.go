package conductor_test

import (
	"errors"
	"testing"

	"github.com/batonrt/baton/conductor"
	"github.com/batonrt/baton/contract"
	"github.com/batonrt/baton/store"
)

// TestSteerTheStoreCouldNotRecordIsAnError: Steer and FollowUp return nil
// only once the input is durable. When the store refuses the record, the
// input is lost with the run, and the host must hear so from the call
// that handed it in, not only from the run's Submit.
func TestSteerTheStoreCouldNotRecordIsAnError(t *testing.T) {
	for _, tc := range []struct {
		name string
		send func(*conductor.Agent) error
	}{
		{"steer", func(a *conductor.Agent) error { return a.Steer(ctxT(t), conductor.Text("change of plan")) }},
		{"follow-up", func(a *conductor.Agent) error { return a.FollowUp(ctxT(t), conductor.Text("and then")) }},
	} {
		t.Run(tc.name, func(t *testing.T) {
			release := make(chan struct{})
			m := &fakeModel{replies: []replyFunc{blockUntil(release, say("first")), say("second")}}
			deps := testDeps(m, nil)
			// The submit's record is the only one the store takes.
			deps.Env.Store = &crashingStore{Store: store.NewMemory(), after: 1}
			a := newAgent(t, contract.AgentConfig{}, deps)
			done := submitAsync(a, "go")
			waitPhase(t, a, contract.PhaseAwaitingModel)
			err := tc.send(a)
			close(release)
			res := <-done
			if !errors.Is(err, contract.ErrStore) {
				t.Errorf("input the store refused: err %v, want a store error", err)
			}
			if !errors.Is(res.err, contract.ErrStore) {
				t.Errorf("submit: err %v, want a store error", res.err)
			}
		})
	}
}
