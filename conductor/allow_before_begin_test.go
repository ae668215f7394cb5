package conductor_test

import (
	"context"
	"strings"
	"testing"
	"time"

	"github.com/batonrt/baton/cadence"
	"github.com/batonrt/baton/conductor"
	"github.com/batonrt/baton/contract"
	"github.com/batonrt/baton/store"
)

// TestAlwaysReachesAChildAboutToBegin: a delegate call is handed out with
// the allowlist its parent had then, and its child begins a moment later
// (here: once a before_tool hook lets it). An "always" given in the
// parent in between must reach the child as it begins, or the child asks
// the person again for what they were told is allowed.
func TestAlwaysReachesAChildAboutToBegin(t *testing.T) {
	model := agentsModel{
		"parent": delegateOnce(call{"e1", "echo", `{"text":"ink"}`}, call{"c1", "delegate_writer", `{"task":"write"}`}),
		"writer": delegateOnce(call{"w1", "echo", `{"text":"ink"}`}),
	}
	cfg := twoDelegates()
	cfg.Tools = []contract.ToolDescriptor{{Name: "echo"}}
	deps := testDeps(model, toolBox(t, keyedEcho(t)))
	st := store.NewMemory()
	deps.Env.Store = st
	deps.People.Approver = conductor.ApproveLater
	release := make(chan struct{})
	deps.Hooks.BeforeTool("hold", 0, func(ctx context.Context, c *contract.ToolCall) (conductor.Verdict, error) {
		if c.Name == "delegate_writer" {
			select {
			case <-release:
			case <-ctx.Done():
			}
		}
		return conductor.Verdict{}, nil
	})
	a := newAgent(t, cfg, deps)
	rec := &recorder{}
	a.Subscribe(rec.add)
	done := submitAsync(a, "go")
	asked := func() int { return count(rec.kinds(false), contract.EvApprovalRequested) }
	waitFor(t, func() bool { return asked() == 1 })
	if err := a.Approve(ctxT(t), "e1", conductor.Decision{Approved: true, Scope: contract.ScopeSession}); err != nil {
		t.Fatal(err)
	}
	waitFor(t, func() bool { return a.Snapshot().Phase == contract.PhaseAwaitingTools })
	close(release)
	var res submitted
	select {
	case res = <-done:
	case <-time.After(5 * time.Second):
		t.Fatalf("the run still waits: the child began without the parent's \"always\" (%d approvals asked)", asked())
	}
	if res.err != nil || res.snap.Phase != contract.PhaseSettled {
		t.Fatalf("submit: %s, %v", res.snap.Phase, res.err)
	}
	for i, r := range results(res.snap) {
		if r.IsError || !strings.Contains(r.Content, "ink") {
			t.Errorf("result %d %+v, want ink", i, r)
		}
	}
	if got := asked(); got != 1 {
		t.Errorf("%d approvals asked, want only the parent's", got)
	}
	_ = a.Close()
	checkDAG(t, st, "session_test", 1)
	if err := store.Replay(ctxT(t), st, cadence.New(cfg), "session_test"); err != nil {
		t.Errorf("replay: %v", err)
	}
}

// TestAlwaysLostToAChildIsOfferedOnResume: the root's "always" is durable
// but its child's record of it is not (the store refused it, as a crash
// between the two writes would leave them). The tree picked up again in
// a new process must give the child what its parent allows as the child
// begins again, or the child asks once more for what the person allowed.
func TestAlwaysLostToAChildIsOfferedOnResume(t *testing.T) {
	model := agentsModel{
		"parent": delegateOnce(call{"e1", "echo", `{"text":"ink"}`}, call{"c1", "delegate_writer", `{"task":"write"}`}),
		"writer": delegateOnce(call{"w1", "echo", `{"text":"ink"}`}),
	}
	cfg := twoDelegates()
	cfg.Tools = []contract.ToolDescriptor{{Name: "echo"}}
	mem := store.NewMemory()
	// Never the n-th: armed below, once the child waits for a person.
	failing := &failOnceStore{Store: mem, prefix: "session_test/", n: -1 << 30}
	deps := testDeps(model, toolBox(t, keyedEcho(t)))
	deps.Env.Store = failing
	deps.People.Approver = conductor.ApproveLater
	a := newAgent(t, cfg, deps)
	rec := &recorder{}
	a.Subscribe(rec.add)
	done := submitAsync(a, "go")
	waitFor(t, func() bool { return count(rec.kinds(false), contract.EvApprovalRequested) == 2 })
	failing.mu.Lock()
	failing.n = 1 // the child's next record: the allowance
	failing.mu.Unlock()
	if err := a.Approve(ctxT(t), "e1", conductor.Decision{Approved: true, Scope: contract.ScopeSession}); err != nil {
		t.Fatal(err)
	}
	if res := <-done; res.err == nil {
		t.Fatalf("submit: %s, want the child's store failure", res.snap.Phase)
	}
	_ = a.Close()

	deps = testDeps(model, toolBox(t, keyedEcho(t)))
	deps.Env.Store = mem
	deps.People.Approver = conductor.ApproveLater
	b := newAgent(t, cfg, deps)
	rec = &recorder{}
	b.Subscribe(rec.add)
	resumed := make(chan submitted, 1)
	go func() {
		snap, err := b.Resume(context.Background(), "session_test")
		resumed <- submitted{snap, err}
	}()
	var res submitted
	select {
	case res = <-resumed:
	case <-time.After(5 * time.Second):
		t.Fatal("the resumed run still waits: the child waits for a person on what its parent allows")
	}
	if res.err != nil || res.snap.Phase != contract.PhaseSettled {
		t.Fatalf("resume: %s, %v", res.snap.Phase, res.err)
	}
	if n := count(rec.kinds(false), contract.EvApprovalRequested); n != 0 {
		t.Errorf("%d approvals asked after resume, want none", n)
	}
	_ = b.Close()
	checkDAG(t, mem, "session_test", 1)
	if err := store.Replay(ctxT(t), mem, cadence.New(cfg), "session_test"); err != nil {
		t.Errorf("replay: %v", err)
	}
}
