package conductor_test

import (
	"context"
	"errors"
	"fmt"
	"strings"
	"sync"
	"testing"

	"github.com/batonrt/baton/conductor"
	"github.com/batonrt/baton/contract"
	"github.com/batonrt/baton/dispatch"
	"github.com/batonrt/baton/store"
)

// failOnceStore refuses one append, the nth to the sessions whose ids
// begin with prefix, and takes every other: a store failure that passes.
type failOnceStore struct {
	store.Store
	mu     sync.Mutex
	prefix string
	n      int
}

func (f *failOnceStore) Append(ctx context.Context, id string, recs ...contract.Record) (store.Hash, error) {
	if f.fails(id) {
		return store.Hash{}, errCrash
	}
	return f.Store.Append(ctx, id, recs...)
}

func (f *failOnceStore) AppendLinked(ctx context.Context, id string, rec contract.Record, links ...store.Hash) (store.Hash, error) {
	if f.fails(id) {
		return store.Hash{}, errCrash
	}
	return f.Store.AppendLinked(ctx, id, rec, links...)
}

func (f *failOnceStore) fails(id string) bool {
	f.mu.Lock()
	defer f.mu.Unlock()
	if !strings.HasPrefix(id, f.prefix) {
		return false
	}
	f.n--
	return f.n == 0
}

// TestStoreFailureOfADelegatesChildEndsTheParentsRun: the store refuses
// one of a child's records, at each of its appends. The child's run stops
// where its store left it, in flight, so the parent's run must stop too,
// with a store error and the delegate call unanswered, as when the child
// loses its lock: written into the parent's session as the call's error
// result, the child's stored run would never be finished, its chain
// linked with calls that have no results. Resumed, the tree finishes.
func TestStoreFailureOfADelegatesChildEndsTheParentsRun(t *testing.T) {
	model := agentsModel{
		"parent": delegateOnce(call{"c1", "delegate_writer", `{"task":"a poem"}`}),
		"writer": delegateOnce(call{"e1", "echo", `{"text":"ink"}`}),
	}
	// The child's records: submitted, its call, the call's result, its
	// answer. The call runs again on resume, so its answer is the same.
	echo := func(t *testing.T) dispatch.Tool { return echoTool(t, dispatch.Idempotent()) }
	for n := 1; n <= 4; n++ {
		t.Run(fmt.Sprint("append ", n), func(t *testing.T) {
			st := store.NewMemory()
			deps := testDeps(model, toolBox(t, echo(t)))
			deps.Env.Store = &failOnceStore{Store: st, prefix: "session_test/", n: n}
			a := newAgent(t, twoDelegates(), deps)
			snap, err := a.Submit(ctxT(t), conductor.Text("go"))
			if !errors.Is(err, contract.ErrStore) || snap.Phase != contract.PhaseAwaitingTools {
				t.Fatalf("submit: err %v, phase %s; want a store error in phase awaiting_tools", err, snap.Phase)
			}
			if got := results(snap); len(got) != 0 {
				t.Fatalf("the delegate call was answered: %+v", got)
			}
			_ = a.Close()

			deps = testDeps(model, toolBox(t, echo(t)))
			deps.Env.Store = st
			b := newAgent(t, twoDelegates(), deps)
			snap, err = b.Resume(ctxT(t), "session_test")
			if err != nil || snap.Phase != contract.PhaseSettled {
				t.Fatalf("resume: err %v, phase %s", err, snap.Phase)
			}
			if got, want := results(snap)[0].Content, "ink"; got != want {
				t.Errorf("the delegate answered %q, want %q", got, want)
			}
			_ = b.Close()
			checkDAG(t, st, "session_test", 1)
		})
	}
}
