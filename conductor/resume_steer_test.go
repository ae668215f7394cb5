package conductor_test

import (
	"errors"
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/batonrt/baton/conductor"
	"github.com/batonrt/baton/contract"
	"github.com/batonrt/baton/store"
)

// TestResumeSendsTheQueuedSteerWithTheModelCall: the process stops while
// a model call is out and a steer was recorded for the run. The steer was
// accepted (Steer returned nil), so the call the resumed run sends again
// must carry it, not the request as it was before the steer arrived.
func TestResumeSendsTheQueuedSteerWithTheModelCall(t *testing.T) {
	release := make(chan struct{})
	first := &fakeModel{replies: []replyFunc{blockUntil(release, say("lost with the process"))}}
	base := store.NewMemory()
	deps := testDeps(first, nil)
	// The submit's record and the steer's are durable; the reply is not.
	deps.Env.Store = &crashingStore{Store: base, after: 2}
	a := newAgent(t, contract.AgentConfig{}, deps)
	done := submitAsync(a, "go")
	waitPhase(t, a, contract.PhaseAwaitingModel)
	if err := a.Steer(ctxT(t), conductor.Text("change of plan")); err != nil {
		t.Fatalf("steer: %v", err)
	}
	close(release)
	if res := <-done; !errors.Is(res.err, contract.ErrStore) {
		t.Fatalf("submit: err %v, want the store's error", res.err)
	}
	_ = a.Close()

	resumed := &fakeModel{replies: []replyFunc{say("on the new plan")}}
	deps2 := testDeps(resumed, nil)
	deps2.Env.Store = base
	b := newAgent(t, contract.AgentConfig{}, deps2)
	snap, err := b.Resume(ctxT(t), "session_test")
	if err != nil || snap.Phase != contract.PhaseSettled {
		t.Errorf("resume: err %v, phase %s", err, snap.Phase)
	}
	var sent [][]string
	for _, req := range resumed.Requests() {
		sent = append(sent, userTexts(req.History.Turns()))
	}
	if diff := cmp.Diff([][]string{{"go", "change of plan"}}, sent); diff != "" {
		t.Errorf("user turns of each resumed model call mismatch (-want +got):\n%s", diff)
	}
	if diff := cmp.Diff([]string{"go", "change of plan"}, userTexts(snap.History.Turns())); diff != "" {
		t.Errorf("user turns in history mismatch (-want +got):\n%s", diff)
	}
}

func userTexts(turns []contract.Turn) []string {
	var out []string
	for _, turn := range turns {
		if turn.Role == contract.RoleUser {
			out = append(out, turn.Text())
		}
	}
	return out
}
