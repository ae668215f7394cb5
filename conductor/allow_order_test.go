package conductor_test

import (
	"testing"
	"time"

	"github.com/batonrt/baton/conductor"
	"github.com/batonrt/baton/contract"
	"github.com/google/go-cmp/cmp"
)

// TestAllowanceReachesChildrenInSessionOrder: an "always" a parent
// passes on reaches its running children in the order of their
// sessions, every time, so the times their records carry (a fixed
// clock's, in tests) and the order their events reach subscribers do
// not depend on how a map happens to iterate.
func TestAllowanceReachesChildrenInSessionOrder(t *testing.T) {
	write := func(id string) call { return call{id, "delegate_writer", `{"task":"write ` + id + `"}`} }
	for round := range 10 {
		model := agentsModel{
			"parent": delegateOnce(write("c1"), write("c2"), write("c3"), write("c4")),
			"writer": delegateOnce(call{"w1", "echo", `{"text":"ink"}`}),
		}
		cfg := twoDelegates()
		cfg.ToolConcurrency = 4
		deps := testDeps(model, toolBox(t, keyedEcho(t)))
		deps.People.Approver = conductor.ApproveLater
		a := newAgent(t, cfg, deps)
		rec := &recorder{}
		a.Subscribe(rec.add)
		done := submitAsync(a, "go")
		count := func(kind contract.EventKind) int {
			rec.mu.Lock()
			defer rec.mu.Unlock()
			n := 0
			for _, ev := range rec.events {
				if ev.Kind == kind {
					n++
				}
			}
			return n
		}
		waitFor(t, func() bool { return count(contract.EvApprovalRequested) == 4 })
		if err := a.ApproveSubflow(ctxT(t), []string{"c1"}, "w1", conductor.Decision{Approved: true, Scope: contract.ScopeSession}); err != nil {
			t.Fatal(err)
		}
		select {
		case res := <-done:
			if res.err != nil || res.snap.Phase != contract.PhaseSettled {
				t.Fatalf("submit: %s, %v", res.snap.Phase, res.err)
			}
		case <-time.After(5 * time.Second):
			t.Fatal("the run still waits after the decision")
		}
		// Events reach subscribers after the run's end, the four
		// children's and the root's run_settled last.
		waitFor(t, func() bool { return count(contract.EvRunSettled) == 5 })
		var got []string
		rec.mu.Lock()
		for _, ev := range rec.events {
			if ev.Kind == contract.EvApprovalResolved && len(ev.Subflow) == 1 && ev.Subflow[0] != "c1" {
				got = append(got, ev.Subflow[0])
			}
		}
		rec.mu.Unlock()
		if diff := cmp.Diff([]string{"c2", "c3", "c4"}, got); diff != "" {
			t.Fatalf("round %d: the children took the allowance out of session order (-want +got):\n%s", round, diff)
		}
		_ = a.Close()
	}
}
