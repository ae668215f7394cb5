package conductor_test

import (
	"strings"
	"testing"
	"time"

	"github.com/batonrt/baton/cadence"
	"github.com/batonrt/baton/conductor"
	"github.com/batonrt/baton/contract"
	"github.com/batonrt/baton/store"
)

// TestAlwaysReachesRunningChildren: from revision 10 on, an "always"
// given while delegates' children run reaches them at once: a child
// waiting for a person on a call the decision allows goes on unasked.
// The decision is given for the root's own call, or for a sibling
// child's call, which travels up to the root and down to the other.
// Every run waits for a person until the one decision is given.
func TestAlwaysReachesRunningChildren(t *testing.T) {
	ink := call{"e1", "echo", `{"text":"ink"}`}
	write := func(id string) call { return call{id, "delegate_writer", `{"task":"write"}`} }
	for _, tc := range []struct {
		name    string
		parent  []call
		asks    int      // the approvals asked before the decision
		decide  []string // the subflow path and call decided
		results []string
		chains  int
	}{
		{"root_to_child", []call{ink, write("c1")}, 2, []string{"e1"}, []string{"ink", "ink"}, 1},
		{"child_to_sibling", []call{write("c1"), write("c2")}, 2, []string{"c1", "w1"}, []string{"ink", "ink"}, 2},
	} {
		t.Run(tc.name, func(t *testing.T) {
			model := agentsModel{
				"parent": delegateOnce(tc.parent...),
				"writer": delegateOnce(call{"w1", "echo", `{"text":"ink"}`}),
			}
			cfg := twoDelegates()
			cfg.Tools = []contract.ToolDescriptor{{Name: "echo"}}
			deps := testDeps(model, toolBox(t, keyedEcho(t)))
			st := store.NewMemory()
			deps.Env.Store = st
			deps.People.Approver = conductor.ApproveLater
			a := newAgent(t, cfg, deps)
			rec := &recorder{}
			a.Subscribe(rec.add)
			done := submitAsync(a, "go")
			asked := func() int {
				rec.mu.Lock()
				defer rec.mu.Unlock()
				n := 0
				for _, ev := range rec.events {
					if ev.Kind == contract.EvApprovalRequested {
						n++
					}
				}
				return n
			}
			waitFor(t, func() bool { return asked() == tc.asks })
			last := len(tc.decide) - 1
			if err := a.ApproveSubflow(ctxT(t), tc.decide[:last], tc.decide[last], conductor.Decision{Approved: true, Scope: contract.ScopeSession}); err != nil {
				t.Fatal(err)
			}
			var res submitted
			select {
			case res = <-done:
			case <-time.After(5 * time.Second):
				t.Fatalf("the run still waits after the decision: a running child was not given what was allowed")
			}
			if res.err != nil || res.snap.Phase != contract.PhaseSettled {
				t.Fatalf("submit: %s, %v", res.snap.Phase, res.err)
			}
			for i, r := range results(res.snap) {
				if r.IsError || !strings.Contains(r.Content, tc.results[i]) {
					t.Errorf("result %d %+v, want %q", i, r, tc.results[i])
				}
			}
			if got := asked(); got != tc.asks {
				t.Errorf("%d approvals asked, want the %d before the decision", got, tc.asks)
			}
			_ = a.Close()
			checkDAG(t, st, "session_test", tc.chains)
			if err := store.Replay(ctxT(t), st, cadence.New(cfg), "session_test"); err != nil {
				t.Errorf("replay: %v", err)
			}
		})
	}
}
