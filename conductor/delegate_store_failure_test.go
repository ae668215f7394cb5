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

// writerDeps are the deps of twoDelegates' parent on st whose writer
// calls echo once, with an after-tool hook when hooks is set. The call
// runs again on resume, so the writer's answer is the same.
func writerDeps(t *testing.T, st store.Store, hooks bool) conductor.Deps {
	model := agentsModel{
		"parent": delegateOnce(call{"c1", "delegate_writer", `{"task":"a poem"}`}),
		"writer": delegateOnce(call{"e1", "echo", `{"text":"ink"}`}),
	}
	deps := testDeps(model, toolBox(t, echoTool(t, dispatch.Idempotent())))
	deps.Env.Store = st
	if hooks {
		deps.Hooks.AfterTool("keep", 0, func(context.Context, contract.ToolCall, *contract.ToolOutcome) error { return nil })
	}
	return deps
}

// wantStopped checks that a run stopped on a store error with the
// delegate call unanswered.
func wantStopped(t *testing.T, what string, snap contract.RunSnapshot, err error) {
	t.Helper()
	if !errors.Is(err, contract.ErrStore) || snap.Phase != contract.PhaseAwaitingTools {
		t.Fatalf("%s: err %v, phase %s; want a store error in phase awaiting_tools", what, err, snap.Phase)
	}
	if got := results(snap); len(got) != 0 {
		t.Fatalf("%s: the delegate call was answered: %+v", what, got)
	}
}

// finishTree resumes the parent's session in st and checks that the tree
// settles with the writer's answer and is stored whole.
func finishTree(t *testing.T, st store.Store) {
	t.Helper()
	a := newAgent(t, twoDelegates(), writerDeps(t, st, false))
	snap, err := a.Resume(ctxT(t), "session_test")
	if err != nil || snap.Phase != contract.PhaseSettled {
		t.Fatalf("resume: err %v, phase %s", err, snap.Phase)
	}
	if got, want := results(snap)[0].Content, "ink"; got != want {
		t.Errorf("the delegate answered %q, want %q", got, want)
	}
	_ = a.Close()
	checkDAG(t, st, "session_test", 1)
}

// TestStoreFailureOfADelegatesChildEndsTheParentsRun: the store refuses
// one of a child's records, at each of its appends. The child's run stops
// where its store left it, in flight, so the parent's run must stop too,
// with a store error and the delegate call unanswered, as when the child
// loses its lock: written into the parent's session as the call's error
// result, the child's stored run would never be finished, its chain
// linked with calls that have no results. Resumed, the tree finishes.
func TestStoreFailureOfADelegatesChildEndsTheParentsRun(t *testing.T) {
	// The child's records: submitted, its call, the call's result, its answer.
	for n := 1; n <= 4; n++ {
		t.Run(fmt.Sprint("append ", n), func(t *testing.T) {
			st := store.NewMemory()
			a := newAgent(t, twoDelegates(), writerDeps(t, &failOnceStore{Store: st, prefix: "session_test/", n: n}, false))
			snap, err := a.Submit(ctxT(t), conductor.Text("go"))
			wantStopped(t, "submit", snap, err)
			_ = a.Close()
			finishTree(t, st)
		})
	}
}

// headFailsOnce fails the first Head of the sessions whose ids begin
// with prefix, as a store that cannot be reached for a moment.
type headFailsOnce struct {
	store.Store
	mu     sync.Mutex
	prefix string
	done   bool
}

func (h *headFailsOnce) Head(ctx context.Context, id string) (store.Hash, error) {
	h.mu.Lock()
	fail := !h.done && strings.HasPrefix(id, h.prefix)
	h.done = h.done || fail
	h.mu.Unlock()
	if fail {
		return store.Hash{}, errCrash
	}
	return h.Store.Head(ctx, id)
}

// TestStoreFailureBeforeAStoredChildBeginsEndsTheParentsRun: a parent
// picked up again must pick up its delegate's stored run, in flight, and
// the store stops that: it cannot be read for a moment, or another driver
// holds the child's session. The delegate call is not answered with the
// failure, which would leave the child's run unfinished for good: the
// parent's run stops with a store error, and a later resume finishes the
// tree. With and without tool hooks, which look the child's session up
// before it begins.
func TestStoreFailureBeforeAStoredChildBeginsEndsTheParentsRun(t *testing.T) {
	for _, hooks := range []bool{false, true} {
		for _, how := range []string{"unreadable", "locked"} {
			t.Run(fmt.Sprintf("%s hooks=%v", how, hooks), func(t *testing.T) {
				// The child's reply is not recorded: it stops in flight.
				st := store.NewMemory()
				a := newAgent(t, twoDelegates(), writerDeps(t, &failOnceStore{Store: st, prefix: "session_test/", n: 2}, hooks))
				if _, err := a.Submit(ctxT(t), conductor.Text("go")); !errors.Is(err, contract.ErrStore) {
					t.Fatalf("submit: %v, want a store error", err)
				}
				_ = a.Close()

				var resumeOn store.Store = st
				release := func() {}
				if how == "unreadable" {
					resumeOn = &headFailsOnce{Store: st, prefix: "session_test/"}
				} else {
					lease, err := st.Lease(ctxT(t), "session_test/2.0")
					if err != nil {
						t.Fatal(err)
					}
					release = func() { _ = lease.Release() }
				}
				b := newAgent(t, twoDelegates(), writerDeps(t, resumeOn, hooks))
				snap, err := b.Resume(ctxT(t), "session_test")
				wantStopped(t, "resume", snap, err)
				_ = b.Close()
				release()
				finishTree(t, st)
			})
		}
	}
}

// researcherDeps are the deps of twoDelegates' parent on st whose
// researcher answers "found" once released, or never when release is nil.
func researcherDeps(t *testing.T, st store.Store, release <-chan struct{}) conductor.Deps {
	model := agentsModel{
		"parent": delegateOnce(call{"c1", "delegate_researcher", `{"task":"look"}`}),
		"researcher": func(context.Context, contract.ModelRequest) replyFunc {
			if release == nil {
				return say("found")
			}
			return blockUntil(release, say("found"))
		},
	}
	deps := testDeps(model, toolBox(t, echoTool(t)))
	deps.Env.Store = st
	return deps
}

// TestAbortTheChildsStoreRefusedIsAnError: the parent's abort aborts its
// running child, and the store refuses the child's record of it. The
// child's run stops in flight in its session, so the parent's run stops
// too, with the delegate call unanswered, and Abort says the store
// failed, at once or after the running tools alike. An abort at once
// must not be recorded over the child, linking a chain whose run never
// ended: a resume finishes the tree.
func TestAbortTheChildsStoreRefusedIsAnError(t *testing.T) {
	for _, mode := range []contract.AbortMode{contract.AbortNow, contract.AbortAfterTools} {
		t.Run(string(mode), func(t *testing.T) {
			st := store.NewMemory()
			// The child's records: submitted, then the abort.
			a := newAgent(t, twoDelegates(), researcherDeps(t, &failOnceStore{Store: st, prefix: "session_test/", n: 2}, make(chan struct{})))
			done := submitAsync(a, "go")
			waitFor(t, func() bool {
				ids, err := st.Sessions(ctxT(t))
				return err == nil && len(ids) == 2
			})
			if err := a.Abort(ctxT(t), mode); !errors.Is(err, contract.ErrStore) {
				t.Errorf("abort the child's store refused: %v, want a store error", err)
			}
			res := <-done
			wantStopped(t, "submit", res.snap, res.err)
			_ = a.Close()
			if mode != contract.AbortNow {
				return
			}
			b := newAgent(t, twoDelegates(), researcherDeps(t, st, nil))
			snap, err := b.Resume(ctxT(t), "session_test")
			if err != nil || snap.Phase != contract.PhaseSettled {
				t.Fatalf("resume: err %v, phase %s", err, snap.Phase)
			}
			if got := results(snap); len(got) != 1 || got[0].Content != "found" {
				t.Errorf("resume: results %+v, want the child's answer", got)
			}
			_ = b.Close()
			checkDAG(t, st, "session_test", 1)
		})
	}
}
