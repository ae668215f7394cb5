package conductor_test

import (
	"context"
	"encoding/json"
	"iter"
	"sync"
	"testing"
	"time"
	"unicode/utf8"

	"github.com/batonrt/baton/conductor"
	"github.com/batonrt/baton/contract"
	"github.com/batonrt/baton/store"
	"github.com/batonrt/baton/turn"
)

// A provider that keeps streaming after its context ends must not get a
// delta to subscribers after the run's last event.
func TestNoDeltaAfterTheRunEnds(t *testing.T) {
	started := make(chan struct{})
	p := streamFunc(func(ctx context.Context, yield func(turn.Chunk, error) bool) {
		for i := 0; i < 400; i++ {
			if i == 1 {
				close(started)
			}
			if !yield(turn.Chunk{Kind: turn.ChunkText, Text: "x"}, nil) {
				return
			}
			time.Sleep(100 * time.Microsecond) // ignores ctx on purpose
		}
	})
	a := newAgent(t, contract.AgentConfig{}, testDeps(p, nil))
	var mu sync.Mutex
	var kinds []contract.EventKind
	a.Subscribe(func(ev contract.RunEvent) {
		mu.Lock()
		kinds = append(kinds, ev.Kind)
		mu.Unlock()
	})
	done := submitAsync(a, "go")
	<-started
	if err := a.Abort(ctxT(t), contract.AbortNow); err != nil {
		t.Fatal(err)
	}
	<-done
	time.Sleep(60 * time.Millisecond) // let a stubborn stream try to publish more
	_ = a.Close()
	mu.Lock()
	defer mu.Unlock()
	for i, k := range kinds {
		if k == contract.EvRunFaulted && i != len(kinds)-1 {
			t.Fatalf("events after run_faulted: %v", kinds[i:])
		}
	}
}

type streamFunc func(ctx context.Context, yield func(turn.Chunk, error) bool)

func (f streamFunc) Stream(ctx context.Context, _ contract.ModelRequest) iter.Seq2[turn.Chunk, error] {
	return func(yield func(turn.Chunk, error) bool) { f(ctx, yield) }
}

// A subscriber that reads Snapshot when it sees an event finds a state at
// least as new as that event.
func TestSnapshotIsCurrentWhenItsEventsArrive(t *testing.T) {
	for range 20 {
		m := &fakeModel{replies: []replyFunc{say("ok")}}
		a := newAgent(t, contract.AgentConfig{}, testDeps(m, nil))
		seen := make(chan contract.Phase, 1)
		a.Subscribe(func(ev contract.RunEvent) {
			if ev.Kind == contract.EvRunSettled {
				seen <- a.Snapshot().Phase
			}
		})
		if _, err := a.Submit(ctxT(t), conductor.Text("hi")); err != nil {
			t.Fatal(err)
		}
		if p := <-seen; p != contract.PhaseSettled {
			t.Fatalf("snapshot phase %s when run_settled arrived", p)
		}
		_ = a.Close()
	}
}

// Text that is not valid UTF-8 (a binary tool output, raw input) is made
// valid before it is recorded, so the live state and the stored one agree.
func TestInvalidUTF8IsRecordedAsItIsStored(t *testing.T) {
	binary := rawTool(t, "bin", func(context.Context, json.RawMessage) (contract.ToolOutcome, error) {
		return contract.ToolOutcome{Content: "ok\xff\xfe"}, nil
	})
	m := &fakeModel{replies: []replyFunc{callTools(call{"c1", "bin", `{}`}), say("done")}}
	deps := testDeps(m, toolBox(t, binary))
	deps.Env.Store = store.NewMemory()
	a := newAgent(t, contract.AgentConfig{}, deps)
	snap, err := a.Submit(ctxT(t), conductor.Text("raw \xc3 input"))
	if err != nil {
		t.Fatal(err)
	}
	for _, turn := range snap.History.Turns() {
		for _, b := range turn.Blocks {
			if !utf8.ValidString(b.Text) || (b.Result != nil && !utf8.ValidString(b.Result.Content)) {
				t.Fatalf("invalid UTF-8 recorded in %+v", b)
			}
		}
	}
	_ = a.Close()
	deps2 := testDeps(&fakeModel{}, toolBox(t, binary))
	deps2.Env.Store = deps.Env.Store
	b := newAgent(t, contract.AgentConfig{}, deps2)
	resumed, err := b.Resume(ctxT(t), snap.SessionID)
	if err != nil {
		t.Fatal(err)
	}
	if got, want := results(resumed)[0].Content, results(snap)[0].Content; got != want {
		t.Fatalf("resumed %q, live %q", got, want)
	}
}

// Deltas published while no one subscribes are still counted: a
// subscriber that comes in the middle of a model call gets the later
// deltas numbered from the call's first, as every subscriber does.
func TestDeltasNoOneSawAreStillCounted(t *testing.T) {
	streamed, subscribed := make(chan struct{}), make(chan struct{})
	p := streamFunc(func(ctx context.Context, yield func(turn.Chunk, error) bool) {
		for _, s := range []string{"a", "b"} {
			if !yield(turn.Chunk{Kind: turn.ChunkText, Text: s}, nil) {
				return
			}
		}
		close(streamed)
		<-subscribed
		if yield(turn.Chunk{Kind: turn.ChunkText, Text: "c"}, nil) {
			yield(turn.Chunk{Kind: turn.ChunkStop, Stop: contract.StopEndTurn}, nil)
		}
	})
	a := newAgent(t, contract.AgentConfig{}, testDeps(p, nil))
	done := submitAsync(a, "go")
	<-streamed
	var mu sync.Mutex
	var deltas []contract.RunEvent
	a.Subscribe(func(ev contract.RunEvent) {
		if ev.Delta != 0 {
			mu.Lock()
			deltas = append(deltas, ev)
			mu.Unlock()
		}
	})
	close(subscribed)
	if r := <-done; r.err != nil {
		t.Fatal(r.err)
	}
	if err := a.Flush(context.Background()); err != nil {
		t.Fatal(err)
	}
	mu.Lock()
	defer mu.Unlock()
	if len(deltas) != 1 || deltas[0].Text != "c" || deltas[0].Delta != 3 || deltas[0].At == 0 {
		t.Fatalf("deltas after subscribing: %+v, want one for \"c\", the call's third, with its time", deltas)
	}
}
