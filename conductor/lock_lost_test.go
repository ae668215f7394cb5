package conductor_test

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"sync"
	"testing"
	"time"

	"github.com/batonrt/baton/conductor"
	"github.com/batonrt/baton/contract"
	"github.com/batonrt/baton/store"
	"github.com/batonrt/baton/turn"
)

// losableBackend is a memory backend whose locks the test can take from
// their holder, as a server does when the connection holding them ends.
type losableBackend struct {
	store.Backend
	mu   sync.Mutex
	lose map[string]context.CancelCauseFunc
}

func newLosableBackend() *losableBackend {
	return &losableBackend{Backend: store.NewMemoryBackend(), lose: map[string]context.CancelCauseFunc{}}
}

type losableLock struct {
	io.Closer
	lost context.Context
}

func (l losableLock) Lost() context.Context { return l.lost }

func (b *losableBackend) Lock(ctx context.Context, session string) (io.Closer, error) {
	c, err := b.Backend.Lock(ctx, session)
	if err != nil {
		return nil, err
	}
	lost, lose := context.WithCancelCause(context.Background())
	b.mu.Lock()
	b.lose[session] = lose
	b.mu.Unlock()
	return losableLock{Closer: c, lost: lost}, nil
}

// take takes the session's lock from its holder.
func (b *losableBackend) take(session string) {
	b.mu.Lock()
	defer b.mu.Unlock()
	b.lose[session](fmt.Errorf("store: lock %q: %w: taken for the test", session, store.ErrLockLost))
}

// takeAllBut takes every lock but keep's from its holder.
func (b *losableBackend) takeAllBut(keep string) {
	b.mu.Lock()
	defer b.mu.Unlock()
	for session, lose := range b.lose {
		if session != keep {
			lose(fmt.Errorf("store: lock %q: %w: taken for the test", session, store.ErrLockLost))
		}
	}
}

// An agent whose session lock is lost while a run is in flight must stop
// the run at once, whatever it is doing, and end it with an error that
// says so: another process may be taking the session over, and both
// would call the model and run the tools of the same run.
func TestLostLockEndsTheRunInFlight(t *testing.T) {
	for _, where := range []string{"model call", "tool call"} {
		t.Run(where, func(t *testing.T) {
			started, stopped := make(chan struct{}), make(chan struct{})
			waitForCancel := func(ctx context.Context) error {
				close(started)
				<-ctx.Done()
				close(stopped)
				return ctx.Err()
			}
			hang := rawTool(t, "hang", func(ctx context.Context, _ json.RawMessage) (contract.ToolOutcome, error) {
				return contract.ToolOutcome{}, waitForCancel(ctx)
			})
			reply := func(ctx context.Context, _ contract.ModelRequest) ([]turn.Chunk, error) {
				return nil, waitForCancel(ctx)
			}
			if where == "tool call" {
				reply = callTools(call{"c1", "hang", `{}`})
			}
			model := &fakeModel{replies: []replyFunc{reply}}
			b := newLosableBackend()
			deps := testDeps(model, toolBox(t, hang))
			deps.Env.Store = store.New(b)
			a := newAgent(t, contract.AgentConfig{}, deps)

			done := make(chan error, 1)
			go func() {
				_, err := a.Submit(ctxT(t), conductor.Text("go"))
				done <- err
			}()
			<-started
			b.take(a.SessionID())
			select {
			case <-stopped:
			case <-time.After(10 * time.Second):
				t.Fatalf("the %s still runs 10 s after the session lock was lost", where)
			}
			select {
			case err := <-done:
				if !errors.Is(err, store.ErrLockLost) {
					t.Errorf("Submit: got %v, want an error matching store.ErrLockLost", err)
				}
			case <-time.After(10 * time.Second):
				t.Fatal("Submit did not return 10 s after the session lock was lost")
			}
			if err := a.Failed(); !errors.Is(err, store.ErrLockLost) {
				t.Errorf("Failed: got %v, want an error matching store.ErrLockLost", err)
			}
			if _, err := a.Submit(ctxT(t), conductor.Text("again")); !errors.Is(err, store.ErrLockLost) {
				t.Errorf("Submit after the lock was lost: got %v, want an error matching store.ErrLockLost", err)
			}
			if n := len(model.Requests()); n != 1 {
				t.Errorf("model called %d times, want 1", n)
			}
		})
	}
}

// An idle agent that loses its session's lock takes no more work until
// it is resumed, which takes the lock again.
func TestIdleAgentThatLostItsLockWaitsForResume(t *testing.T) {
	model := &fakeModel{replies: []replyFunc{say("one"), say("two")}}
	b := newLosableBackend()
	deps := testDeps(model, toolBox(t))
	deps.Env.Store = store.New(b)
	a := newAgent(t, contract.AgentConfig{}, deps)
	if _, err := a.Submit(ctxT(t), conductor.Text("first")); err != nil {
		t.Fatal(err)
	}
	b.take(a.SessionID())
	for i := 0; a.Failed() == nil; i++ {
		if i == 1000 {
			t.Fatal("the agent was not told its lock was lost within 10 s")
		}
		time.Sleep(10 * time.Millisecond)
	}
	if err := a.Failed(); !errors.Is(err, store.ErrLockLost) {
		t.Fatalf("Failed: got %v, want an error matching store.ErrLockLost", err)
	}
	if _, err := a.Submit(ctxT(t), conductor.Text("refused")); !errors.Is(err, store.ErrLockLost) {
		t.Fatalf("Submit after the lock was lost: got %v, want an error matching store.ErrLockLost", err)
	}
	if _, err := a.Resume(ctxT(t), a.SessionID()); err != nil {
		t.Fatalf("Resume: %v", err)
	}
	snap, err := a.Submit(ctxT(t), conductor.Text("second"))
	if err != nil || snap.Phase != contract.PhaseSettled {
		t.Fatalf("Submit after Resume: phase %s, err %v", snap.Phase, err)
	}
}
