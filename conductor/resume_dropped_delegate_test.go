package conductor_test

import (
	"errors"
	"testing"

	"github.com/batonrt/baton/cadence"
	"github.com/batonrt/baton/contract"
	"github.com/batonrt/baton/store"
)

// TestResumeEndsTheChildOfADelegateNoLongerConfigured: a parent whose
// abort was recorded while its delegate's child ran is resumed by an
// agent whose config no longer names that delegate (at the top, or one
// level down). The abort answers the delegate call all the same, so the
// child's run, linked under the answer, must end in its session, under
// the config its session recorded, or the DAG holds a run in flight
// under an answered call for good.
func TestResumeEndsTheChildOfADelegateNoLongerConfigured(t *testing.T) {
	withoutWriter := twoDelegates()
	withoutWriter.Delegates = withoutWriter.Delegates[:1]
	midWithoutWriter := deepWriter()
	midWithoutWriter.Delegates[0].Config.Delegates = nil
	trees := []struct {
		name    string
		cfg     contract.AgentConfig
		resumed contract.AgentConfig
		asker   string
		chains  int
	}{
		{"child", twoDelegates(), withoutWriter, "session_test/", 1},
		{"grandchild", deepWriter(), midWithoutWriter, "session_test/2.0/", 2},
	}
	for _, tree := range trees {
		t.Run(tree.name, func(t *testing.T) {
			st := store.NewMemory()
			abortedMidChild(t, st, tree.cfg, tree.asker)
			deps := testDeps(agentsModel{}, toolBox(t, echoTool(t, dispatchNeedsApproval)))
			deps.Env.Store = st
			a := newAgent(t, tree.resumed, deps)
			snap, err := a.Resume(ctxT(t), "session_test")
			if !errors.Is(err, contract.ErrAborted) {
				t.Fatalf("Resume = %v", err)
			}
			if snap.Phase != contract.PhaseFaulted || !errors.Is(snap.Err, contract.ErrAborted) {
				t.Fatalf("the parent resumed to %s (%v), want it aborted", snap.Phase, snap.Err)
			}
			_ = a.Close()
			checkDAG(t, st, "session_test", tree.chains)
			if err := store.Replay(ctxT(t), st, cadence.New(tree.resumed), "session_test"); err != nil {
				t.Errorf("replay: %v", err)
			}
		})
	}
}
