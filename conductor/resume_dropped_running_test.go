package conductor_test

import (
	"errors"
	"testing"

	"github.com/batonrt/baton/cadence"
	"github.com/batonrt/baton/conductor"
	"github.com/batonrt/baton/contract"
	"github.com/batonrt/baton/store"
	"github.com/google/go-cmp/cmp"
)

// TestResumedCallOfADroppedDelegateNamesNoDelegate: a tree is closed
// while its delegate's child waits for a person, which leaves both runs
// in flight, and is resumed by an agent whose config no longer names
// that delegate (at the top, or one level down). The delegate call is
// answered as a call naming no delegate is when the model makes it, not
// with the error of a child begun under no config, and the child's run
// ends in its session, so the DAG holds no run in flight.
func TestResumedCallOfADroppedDelegateNamesNoDelegate(t *testing.T) {
	withoutWriter := twoDelegates()
	withoutWriter.Delegates = withoutWriter.Delegates[:1]
	midWithoutWriter := deepWriter()
	midWithoutWriter.Delegates[0].Config.Delegates = nil
	trees := []struct {
		name     string
		cfg      contract.AgentConfig
		resumed  contract.AgentConfig
		asker    string
		answerer string
		chains   int
	}{
		{"child", twoDelegates(), withoutWriter, "session_test/2.0", "session_test", 1},
		{"grandchild", deepWriter(), midWithoutWriter, "session_test/2.0/2.0", "session_test/2.0", 2},
	}
	for _, tree := range trees {
		t.Run(tree.name, func(t *testing.T) {
			st := store.NewMemory()
			closedAsking(t, st, tree.cfg)
			deps := testDeps(askingTree(), toolBox(t, echoTool(t, dispatchNeedsApproval)))
			deps.Env.Store = st
			a := newAgent(t, tree.resumed, deps)
			snap, err := a.Resume(ctxT(t), "session_test")
			_ = a.Close()
			if err != nil || snap.Phase != contract.PhaseSettled {
				t.Fatalf("Resume = %s, %v; want the run settled", snap.Phase, err)
			}
			records, err := st.Records(ctxT(t), tree.answerer)
			if err != nil {
				t.Fatal(err)
			}
			var got []string
			for _, rec := range records {
				if s, ok := rec.Signal.(contract.DelegateSettled); ok {
					got = append(got, s.Outcome.Content)
				}
			}
			if diff := cmp.Diff([]string{"error: delegate_writer names no delegate of this agent"}, got); diff != "" {
				t.Errorf("the delegate call's answer mismatch (-want +got):\n%s", diff)
			}
			checkDAG(t, st, "session_test", tree.chains)
			if err := store.Replay(ctxT(t), st, cadence.New(tree.resumed), "session_test"); err != nil {
				t.Errorf("replay: %v", err)
			}
		})
	}
}

// closedAsking runs cfg's tree on st until the writer asks a person
// whether to call echo, and closes it there, leaving the tree in flight.
func closedAsking(t *testing.T, st store.Store, cfg contract.AgentConfig) {
	t.Helper()
	deps := testDeps(askingTree(), toolBox(t, echoTool(t, dispatchNeedsApproval)))
	deps.Env.Store = st
	deps.People.Approver = conductor.ApproveLater
	a := newAgent(t, cfg, deps)
	rec := &recorder{}
	a.Subscribe(rec.add)
	done := submitAsync(a, "go")
	waitFor(t, func() bool {
		rec.mu.Lock()
		defer rec.mu.Unlock()
		for _, ev := range rec.events {
			if ev.Kind == contract.EvApprovalRequested && len(ev.Subflow) > 0 {
				return true
			}
		}
		return false
	})
	_ = a.Close()
	if res := <-done; !errors.Is(res.err, conductor.ErrClosed) {
		t.Fatalf("submit = %v, want the run left waiting", res.err)
	}
}
