package conductor

import (
	"context"
	"errors"
	"iter"
	"sync/atomic"
	"testing"
	"time"

	"github.com/batonrt/baton/contract"
	"github.com/batonrt/baton/turn"
)

// firstThenHang answers its first call and holds every later one until
// its context ends.
type firstThenHang struct{ calls atomic.Int32 }

func (p *firstThenHang) Stream(ctx context.Context, _ contract.ModelRequest) iter.Seq2[turn.Chunk, error] {
	return func(yield func(turn.Chunk, error) bool) {
		if p.calls.Add(1) > 1 {
			<-ctx.Done()
			yield(turn.Chunk{}, ctx.Err())
			return
		}
		if yield(turn.Chunk{Kind: turn.ChunkText, Text: "hi"}, nil) {
			yield(turn.Chunk{Kind: turn.ChunkStop, Stop: contract.StopEndTurn}, nil)
		}
	}
}

// waitInbox waits until n closures are queued behind the one running.
func waitInbox(t *testing.T, a *Agent, n int) {
	t.Helper()
	deadline := time.Now().Add(5 * time.Second)
	for a.queued() < n {
		if time.Now().After(deadline) {
			t.Fatalf("inbox never reached %d", n)
		}
		time.Sleep(time.Millisecond)
	}
}

func (a *Agent) queued() int {
	a.qmu.Lock()
	defer a.qmu.Unlock()
	return len(a.queue) - a.qhead
}

// TestSubmitQueuedBehindCloseIsRefused: a Submit whose request reaches
// the loop after Close's must not start a run that nothing will end;
// Close would wait for its model call forever.
func TestSubmitQueuedBehindCloseIsRefused(t *testing.T) {
	entered, release := make(chan struct{}), make(chan struct{})
	var once atomic.Bool
	deps := Deps{
		Model: Model{Provider: &firstThenHang{}, MaxRetries: turn.NoRetries},
		Env:   Env{SessionID: "session_close", IDs: &CountingIDs{}},
	}
	deps.Hooks.OnRunEnd("hang_once", 0, func(context.Context, contract.RunSnapshot) {
		if once.CompareAndSwap(false, true) {
			close(entered)
			<-release
		}
	})
	a, err := CreateAgent(contract.AgentConfig{Model: "gpt-4o"}, deps)
	if err != nil {
		t.Fatal(err)
	}
	go func() { _, _ = a.Submit(context.Background(), Text("one")) }()
	<-entered // the loop is held inside the first run's end
	closed := make(chan error, 1)
	go func() { closed <- a.Close() }()
	waitInbox(t, a, 1)
	second := make(chan error, 1)
	go func() {
		_, err := a.Submit(context.Background(), Text("two"))
		second <- err
	}()
	waitInbox(t, a, 2)
	close(release)
	select {
	case err := <-closed:
		if err != nil {
			t.Fatal(err)
		}
	case <-time.After(5 * time.Second):
		t.Fatal("Close hung: a run started after it")
	}
	if err := <-second; !errors.Is(err, ErrClosed) {
		t.Fatalf("submit after close: %v", err)
	}
}
