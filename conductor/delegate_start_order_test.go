package conductor_test

import (
	"fmt"
	"slices"
	"testing"

	"github.com/batonrt/baton/conductor"
	"github.com/batonrt/baton/contract"
	"github.com/batonrt/baton/store"
)

// TestAStepsEventsComeBeforeItsChildrens: a turn that calls delegates
// publishes every event of its step (each call's subflow_started) before
// any child it begins publishes one. A client resuming from the store
// finds the step's events, all stamped with the step's time, before the
// children's, and numbers the children's events from the step's last
// one: the live stream must have had them there too.
// Before, each child began right after its own subflow_started was
// published, and could publish its first events before its siblings'
// subflow_started were.
func TestAStepsEventsComeBeforeItsChildrens(t *testing.T) {
	const n = contract.DefaultToolConcurrency
	var calls []call
	for i := range n {
		calls = append(calls, call{fmt.Sprint("c", i), "delegate_researcher", fmt.Sprintf(`{"task":"fact %d"}`, i)})
	}
	model := agentsModel{"parent": delegateOnce(calls...), "researcher": answerTask("researched")}
	for round := range 100 {
		deps := testDeps(model, toolBox(t, echoTool(t)))
		deps.Env.Store = store.NewMemory()
		a := newAgent(t, twoDelegates(), deps)
		rec := &recorder{}
		a.Subscribe(rec.add)
		if _, err := a.Submit(ctxT(t), conductor.Text("go")); err != nil {
			t.Fatal(err)
		}
		waitFor(t, func() bool {
			rec.mu.Lock()
			defer rec.mu.Unlock()
			return slices.ContainsFunc(rec.events, func(ev contract.RunEvent) bool {
				return ev.Kind == contract.EvRunSettled && len(ev.Subflow) == 0
			})
		})
		rec.mu.Lock()
		events := slices.Clone(rec.events)
		rec.mu.Unlock()
		firstChild := slices.IndexFunc(events, func(ev contract.RunEvent) bool { return len(ev.Subflow) > 0 })
		for i, ev := range events {
			if ev.Kind == contract.EvSubflowStarted && len(ev.Subflow) == 0 && i > firstChild {
				t.Fatalf("round %d: subflow_started of %s (event %d) published after the child event %d (%s of %v)",
					round, ev.Call.ID, i, firstChild, events[firstChild].Kind, events[firstChild].Subflow)
			}
		}
	}
}
