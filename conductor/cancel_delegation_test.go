package conductor_test

import (
	"context"
	"errors"
	"slices"
	"sync/atomic"
	"testing"
	"time"

	"github.com/batonrt/baton/cadence"
	"github.com/batonrt/baton/conductor"
	"github.com/batonrt/baton/contract"
	"github.com/batonrt/baton/store"
)

// deadlineCtx is a context whose deadline passes when the test says so,
// not when a clock does.
type deadlineCtx struct {
	context.Context
	done chan struct{}
}

func (c deadlineCtx) Done() <-chan struct{} { return c.done }

func (c deadlineCtx) Err() error {
	select {
	case <-c.done:
		return context.DeadlineExceeded
	default:
		return nil
	}
}

// TestCancelledSubmitMatchesItsContext: a Submit whose context ends at
// any point of a delegation (the parent's own model call before any
// child begins, a child's model call, two children at once, a
// grandchild's model call) returns at once with an error that matches
// contract.ErrAborted, as the run began and was stopped, and also the
// context's error and its cause, as a Submit whose context had ended
// before it was called does: a host tells a deadline from a person who
// left. The error reads as the recorded fault does, and the session
// resumes, takes the next Submit and replays.
func TestCancelledSubmitMatchesItsContext(t *testing.T) {
	ends := []struct {
		name string
		make func() (context.Context, func())
		want []error
	}{
		{"cancelled", func() (context.Context, func()) {
			ctx, cancel := context.WithCancel(context.Background())
			return ctx, cancel
		}, []error{context.Canceled}},
		{"cause", func() (context.Context, func()) {
			ctx, cancel := context.WithCancelCause(context.Background())
			return ctx, func() { cancel(errUserLeft) }
		}, []error{context.Canceled, errUserLeft}},
		{"deadline", func() (context.Context, func()) {
			ctx := deadlineCtx{Context: context.Background(), done: make(chan struct{})}
			return ctx, func() { close(ctx.done) }
		}, []error{context.DeadlineExceeded}},
	}
	points := []struct {
		name string
		// started reports whether the run reached the point.
		started func(rec *recorder) bool
		// calls are the model calls blocked there.
		blocked []string
	}{
		{"before a child begins", modelCallAt(0), []string{"parent"}},
		{"mid child", modelCallAt(1), []string{"mid"}},
		{"two children at once", modelCallsAt(1, 2), []string{"mid"}},
		{"mid grandchild", modelCallAt(2), []string{"leaf"}},
	}
	for _, end := range ends {
		for _, at := range points {
			t.Run(end.name+" "+at.name, func(t *testing.T) {
				cfg, model := twoLevels()
				held := model
				for _, sys := range at.blocked {
					held = withBlocked(held, sys)
				}
				st := store.NewMemory()
				deps := testDeps(held, toolBox(t))
				deps.Env.Store = st
				a := newAgent(t, cfg, deps)
				rec := &recorder{}
				a.Subscribe(rec.add)
				ctx, stop := end.make()
				done := make(chan error, 1)
				go func() {
					_, err := a.Submit(ctx, conductor.Text("go"))
					done <- err
				}()
				waitFor(t, func() bool { return at.started(rec) })
				stop()
				var err error
				select {
				case err = <-done:
				case <-time.After(10 * time.Second):
					t.Fatal("submit still waits after its context ended")
				}
				for _, want := range append([]error{contract.ErrAborted}, end.want...) {
					if !errors.Is(err, want) {
						t.Errorf("submit = %v, want it to match %v", err, want)
					}
				}
				snap := a.Snapshot()
				if snap.Err == nil || err == nil || err.Error() != snap.Err.Error() {
					t.Errorf("submit = %v, want it to read as the recorded fault %v", err, snap.Err)
				}
				if err := a.Close(); err != nil {
					t.Fatal(err)
				}
				deps.Model.Provider = model
				b := newAgent(t, cfg, deps)
				if snap, err := b.Resume(ctxT(t), "session_test"); snap.Phase.InFlight() {
					t.Fatalf("resume: %s, %v", snap.Phase, err)
				}
				if snap, err := b.Submit(ctxT(t), conductor.Text("again")); err != nil || snap.Phase != contract.PhaseSettled {
					t.Fatalf("the next submit: %s, %v", snap.Phase, err)
				}
				if err := b.Close(); err != nil {
					t.Fatal(err)
				}
				ids, err := st.Sessions(ctxT(t))
				if err != nil {
					t.Fatal(err)
				}
				checkDAG(t, st, "session_test", len(ids)-1)
				if err := store.Replay(ctxT(t), st, cadence.New(cfg), "session_test"); err != nil {
					t.Errorf("replay: %v", err)
				}
			})
		}
	}
}

// withBlocked is m with the model calls of the agent whose system prompt
// is sys held until their context ends.
func withBlocked(m agentsModel, sys string) agentsModel {
	out := agentsModel{}
	for k, v := range m {
		out[k] = v
	}
	out[sys] = func(context.Context, contract.ModelRequest) replyFunc {
		return blockUntil(make(chan struct{}), say("never"))
	}
	return out
}

// modelCallAt reports whether a run at the depth has started.
func modelCallAt(depth int) func(rec *recorder) bool {
	return modelCallsAt(depth, 1)
}

// modelCallsAt reports whether n runs at the depth have started.
func modelCallsAt(depth, n int) func(rec *recorder) bool {
	return func(rec *recorder) bool {
		rec.mu.Lock()
		defer rec.mu.Unlock()
		var paths [][]string
		for _, ev := range rec.events {
			if ev.Kind == contract.EvRunStarted && len(ev.Subflow) == depth && !slices.ContainsFunc(paths, func(p []string) bool { return slices.Equal(p, ev.Subflow) }) {
				paths = append(paths, ev.Subflow)
			}
		}
		return len(paths) >= n
	}
}

// TestCancelledResumeMatchesItsContext: a Resume that picks a tree up
// mid-grandchild and whose context ends while the grandchild calls its
// model again returns an error matching the context's too, as Submit's
// does.
func TestCancelledResumeMatchesItsContext(t *testing.T) {
	cfg, model := twoLevels()
	var calls atomic.Int32
	model["leaf"] = func(context.Context, contract.ModelRequest) replyFunc {
		calls.Add(1)
		return blockUntil(make(chan struct{}), say("never"))
	}
	st := store.NewMemory()
	deps := testDeps(model, toolBox(t))
	deps.Env.Store = st
	a, err := conductor.CreateAgent(cfg, deps)
	if err != nil {
		t.Fatal(err)
	}
	done := submitAsync(a, "go")
	waitFor(t, func() bool { return calls.Load() == 2 })
	if err := a.Leave(); err != nil {
		t.Fatal(err)
	}
	<-done
	b := newAgent(t, cfg, deps)
	ctx, cancel := context.WithCancelCause(context.Background())
	resumed := make(chan error, 1)
	go func() {
		_, err := b.Resume(ctx, "session_test")
		resumed <- err
	}()
	waitFor(t, func() bool { return calls.Load() == 4 })
	cancel(errUserLeft)
	select {
	case err = <-resumed:
	case <-time.After(10 * time.Second):
		t.Fatal("resume still waits after its context ended")
	}
	for _, want := range []error{contract.ErrAborted, context.Canceled, errUserLeft} {
		if !errors.Is(err, want) {
			t.Errorf("resume = %v, want it to match %v", err, want)
		}
	}
	if err := b.Close(); err != nil {
		t.Fatal(err)
	}
	checkDAG(t, st, "session_test", 4)
	if err := store.Replay(ctxT(t), st, cadence.New(cfg), "session_test"); err != nil {
		t.Errorf("replay: %v", err)
	}
}
