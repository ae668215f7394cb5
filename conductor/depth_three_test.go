package conductor_test

import (
	"bytes"
	"context"
	"errors"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/batonrt/baton/cadence"
	"github.com/batonrt/baton/conductor"
	"github.com/batonrt/baton/contract"
	"github.com/batonrt/baton/store"
	"github.com/batonrt/baton/turn"
)

// threeDeep is a root that delegates to "one", which delegates to "two",
// which delegates to "three": a child at the default depth cap. The
// model answers "three" with deepest, every other agent by delegating
// once and then joining its results.
func threeDeep(deepest func(context.Context, contract.ModelRequest) replyFunc) (contract.AgentConfig, agentsModel) {
	three := contract.AgentConfig{Model: "gpt-4o", System: "three"}
	two := contract.AgentConfig{Model: "gpt-4o", System: "two", Delegates: []contract.Delegate{{Name: "three", Config: three}}}
	one := contract.AgentConfig{Model: "gpt-4o", System: "one", Delegates: []contract.Delegate{{Name: "two", Config: two}}}
	cfg := contract.AgentConfig{Model: "gpt-4o", System: "root", Delegates: []contract.Delegate{{Name: "one", Config: one}}}
	model := agentsModel{
		"root":  delegateOnce(call{"r1", "delegate_one", `{"task":"dig"}`}),
		"one":   delegateOnce(call{"o1", "delegate_two", `{"task":"deeper"}`}),
		"two":   delegateOnce(call{"t1", "delegate_three", `{"task":"deepest"}`}),
		"three": deepest,
	}
	return cfg, model
}

// deepStarted reports whether the run at depth three has started.
func deepStarted(rec *recorder) func() bool {
	return func() bool {
		rec.mu.Lock()
		defer rec.mu.Unlock()
		for _, ev := range rec.events {
			if ev.Kind == contract.EvRunStarted && len(ev.Subflow) == 3 {
				return true
			}
		}
		return false
	}
}

// TestDepthThreeTreeExportsAndImportsByteForByte: a settled tree three
// delegates deep, exported and imported into an empty store, verifies,
// replays, and exports again to the very same bytes.
func TestDepthThreeTreeExportsAndImportsByteForByte(t *testing.T) {
	cfg, model := threeDeep(answerTask("found"))
	st := store.NewMemory()
	deps := testDeps(model, toolBox(t))
	deps.Env.Store = st
	a := newAgent(t, cfg, deps)
	snap, err := a.Submit(ctxT(t), conductor.Text("go"))
	if err != nil || snap.Phase != contract.PhaseSettled {
		t.Fatalf("submit: %s, %v", snap.Phase, err)
	}
	if got := results(snap); len(got) != 1 || got[0].Content != "found: deepest" {
		t.Fatalf("root's result %+v, want the deepest answer passed up", got)
	}
	_ = a.Close()
	checkDAG(t, st, "session_test", 3)
	ctx := ctxT(t)
	var first bytes.Buffer
	if err := st.Export(ctx, &first, "session_test"); err != nil {
		t.Fatal(err)
	}
	fresh := store.NewMemory()
	if _, err := fresh.Import(ctx, bytes.NewReader(first.Bytes())); err != nil {
		t.Fatal(err)
	}
	checkDAG(t, fresh, "session_test", 3)
	if err := store.Replay(ctx, fresh, cadence.New(cfg), "session_test"); err != nil {
		t.Fatalf("replay of the imported tree: %v", err)
	}
	var again bytes.Buffer
	if err := fresh.Export(ctx, &again, "session_test"); err != nil {
		t.Fatal(err)
	}
	if !bytes.Equal(first.Bytes(), again.Bytes()) {
		t.Errorf("the imported tree exports %d bytes unlike the %d exported first", again.Len(), first.Len())
	}
}

// TestDepthThreeProviderFailureReachesTheRoot: the model of the run at
// depth three fails for good. Each run above it takes the failure as its
// delegate call's error result and goes on; the root's caller gets a
// settled run whose result names the failure, and every run of the tree
// has ended in its session.
func TestDepthThreeProviderFailureReachesTheRoot(t *testing.T) {
	cfg, model := threeDeep(nil)
	delete(model, "three")
	failing := &fakeModel{replies: []replyFunc{func(context.Context, contract.ModelRequest) ([]turn.Chunk, error) {
		return nil, &turn.ProviderError{Failure: contract.FailAuth, Message: "bad key"}
	}}}
	st := store.NewMemory()
	deps := testDeps(model, toolBox(t))
	deps.Env.Store = st
	deps.Model.Delegates = map[string]turn.Provider{"three": failing}
	a := newAgent(t, cfg, deps)
	snap, err := a.Submit(ctxT(t), conductor.Text("go"))
	if err != nil || snap.Phase != contract.PhaseSettled {
		t.Fatalf("submit: %s, %v; want the root settled", snap.Phase, err)
	}
	res := results(snap)
	if len(res) != 1 || !strings.Contains(res[0].Content, "error: delegate three: failed: baton: model: auth") {
		t.Errorf("root's result %+v, want the failure at depth three passed up", res)
	}
	_ = a.Close()
	checkDAG(t, st, "session_test", 3)
	deep, err := store.Resume(ctxT(t), st, cadence.New(contract.AgentConfig{Model: "gpt-4o"}), "session_test/2.0/2.0/2.0")
	if err != nil {
		t.Fatal(err)
	}
	if deep.Phase != contract.PhaseFaulted || deep.Err == nil || deep.Err.Kind != contract.KindModel {
		t.Errorf("the run at depth three ended %s with %v, want a model fault", deep.Phase, deep.Err)
	}
}

// TestCancelledContextStopsADepthThreeTree: the root's caller cancels
// its context while the run at depth three waits on its model. Submit
// returns aborted, every run of the tree has ended in its session, the
// session takes a new submit, and no goroutine is left (goleak, TestMain).
func TestCancelledContextStopsADepthThreeTree(t *testing.T) {
	cfg, model := threeDeep(func(context.Context, contract.ModelRequest) replyFunc {
		return blockUntil(make(chan struct{}), say("never"))
	})
	st := store.NewMemory()
	deps := testDeps(model, toolBox(t))
	deps.Env.Store = st
	a := newAgent(t, cfg, deps)
	rec := &recorder{}
	a.Subscribe(rec.add)
	ctx, cancel := context.WithCancel(context.Background())
	done := make(chan error, 1)
	go func() {
		_, err := a.Submit(ctx, conductor.Text("go"))
		done <- err
	}()
	waitFor(t, deepStarted(rec))
	cancel()
	select {
	case err := <-done:
		if !errors.Is(err, contract.ErrAborted) {
			t.Fatalf("submit = %v, want aborted", err)
		}
	case <-time.After(5 * time.Second):
		t.Fatal("submit still waits after its context was cancelled")
	}
	if p := a.Snapshot().Phase; p.InFlight() {
		t.Errorf("root still %s", p)
	}
	checkDAG(t, st, "session_test", 3)
	model["three"] = answerTask("found")
	snap, err := a.Submit(ctxT(t), conductor.Text("again"))
	if err != nil || snap.Phase != contract.PhaseSettled {
		t.Fatalf("the next submit: %s, %v", snap.Phase, err)
	}
	_ = a.Close()
	if err := store.Replay(ctxT(t), st, cadence.New(cfg), "session_test"); err != nil {
		t.Errorf("replay: %v", err)
	}
}

// TestCloseStopsADepthThreeTree: Close while the run at depth three
// calls its model aborts the whole tree: Close returns, every run has
// ended in its session, Submit returns, and the tree replays.
func TestCloseStopsADepthThreeTree(t *testing.T) {
	cfg, model := threeDeep(func(context.Context, contract.ModelRequest) replyFunc {
		return blockUntil(make(chan struct{}), say("never"))
	})
	st := store.NewMemory()
	deps := testDeps(model, toolBox(t))
	deps.Env.Store = st
	a, err := conductor.CreateAgent(cfg, deps)
	if err != nil {
		t.Fatal(err)
	}
	rec := &recorder{}
	a.Subscribe(rec.add)
	done := submitAsync(a, "go")
	waitFor(t, deepStarted(rec))
	closed := make(chan error, 1)
	go func() { closed <- a.Close() }()
	select {
	case err := <-closed:
		if err != nil {
			t.Errorf("close: %v", err)
		}
	case <-time.After(5 * time.Second):
		t.Fatal("close still waits")
	}
	select {
	case res := <-done:
		if res.err == nil {
			t.Errorf("submit returned %s without an error", res.snap.Phase)
		}
	case <-time.After(5 * time.Second):
		t.Fatal("submit still waits after close")
	}
	checkDAG(t, st, "session_test", 3)
	if err := store.Replay(ctxT(t), st, cadence.New(cfg), "session_test"); err != nil {
		t.Errorf("replay: %v", err)
	}
}

// TestSameDelegateTwiceInOneTurnRunsInParallel: two calls of one turn to
// the same delegate run as two children at once (each waits for the other
// to start), each in its own session, and each answer comes back to its
// own call.
func TestSameDelegateTwiceInOneTurnRunsInParallel(t *testing.T) {
	var started sync.WaitGroup
	started.Add(2)
	model := agentsModel{
		"parent": delegateOnce(call{"c1", "delegate_researcher", `{"task":"north"}`}, call{"c2", "delegate_researcher", `{"task":"south"}`}),
		"researcher": func(ctx context.Context, req contract.ModelRequest) replyFunc {
			started.Done()
			met := make(chan struct{})
			go func() { started.Wait(); close(met) }()
			return blockUntil(met, say("found "+lastUser(req)))
		},
	}
	st := store.NewMemory()
	deps := testDeps(model, toolBox(t, echoTool(t)))
	deps.Env.Store = st
	a := newAgent(t, twoDelegates(), deps)
	ctx, cancel := context.WithTimeout(ctxT(t), 5*time.Second)
	defer cancel()
	snap, err := a.Submit(ctx, conductor.Text("go"))
	if err != nil || snap.Phase != contract.PhaseSettled {
		t.Fatalf("submit: %s, %v; the two children did not run at once", snap.Phase, err)
	}
	res := results(snap)
	if len(res) != 2 || res[0].Content != "found north" || res[1].Content != "found south" {
		t.Errorf("results %+v, want each child's answer on its own call", res)
	}
	_ = a.Close()
	checkDAG(t, st, "session_test", 2)
	if err := store.Replay(ctxT(t), st, cadence.New(twoDelegates()), "session_test"); err != nil {
		t.Errorf("replay: %v", err)
	}
}
