package conductor

import (
	"context"
	"errors"
	"fmt"
	"iter"
	"os"
	"runtime"
	"sync/atomic"
	"testing"
	"time"

	"github.com/batonrt/baton/contract"
	"github.com/batonrt/baton/store"
	"github.com/batonrt/baton/turn"
)

// delegateThenDone has the parent call its writer once and then end its
// turn, once last is closed; the writer ends its turn at once.
type delegateThenDone struct{ last <-chan struct{} }

func (m delegateThenDone) Stream(ctx context.Context, req contract.ModelRequest) iter.Seq2[turn.Chunk, error] {
	chunks := []turn.Chunk{{Kind: turn.ChunkText, Text: "done"}, {Kind: turn.ChunkStop, Stop: contract.StopEndTurn}}
	turns := req.History.Turns()
	if req.System == "parent" && turns[len(turns)-1].Role != contract.RoleTool {
		chunks = []turn.Chunk{
			{Kind: turn.ChunkToolCallStart, CallID: "c1", Name: "delegate_writer"},
			{Kind: turn.ChunkToolCallArgs, Text: `{"task":"write"}`},
			{Kind: turn.ChunkToolCallEnd},
			{Kind: turn.ChunkStop, Stop: contract.StopToolUse},
		}
	}
	return func(yield func(turn.Chunk, error) bool) {
		if req.System == "parent" && turns[len(turns)-1].Role == contract.RoleTool {
			select {
			case <-m.last:
			case <-ctx.Done():
				yield(turn.Chunk{}, ctx.Err())
				return
			}
		}
		for _, c := range chunks {
			if !yield(c, nil) {
				return
			}
		}
	}
}

// abortAtShare has the agent a aborted as it records an allowance taken
// from its child, and holds that record until the abort is queued
// behind it, where whoever is doing a's tasks meets it next.
type abortAtShare struct {
	store.Store
	a       *Agent
	once    atomic.Bool
	aborted chan error
	// returned is closed once the abort has returned.
	returned chan struct{}
}

func (s *abortAtShare) Append(ctx context.Context, id string, recs ...contract.Record) (store.Hash, error) {
	for _, r := range recs {
		if _, ok := r.Signal.(contract.AllowanceShared); ok && id == "session_begin" && s.once.CompareAndSwap(false, true) {
			go func() {
				s.aborted <- s.a.Abort(context.Background(), contract.AbortNow)
				close(s.returned)
			}()
			deadline := time.Now().Add(5 * time.Second)
			for s.a.queued() < 1 && time.Now().Before(deadline) {
				runtime.Gosched()
			}
		}
	}
	return s.Store.Append(ctx, id, recs...)
}

// TestAChildBeginningDoesNotDoItsParentsTasks: a delegate's child
// begins holding its call's lock, which its parent takes to look the
// child up (passing an allowance on) or to stop it (an abort). The
// child's first step takes its parent's allowlist and offers it back;
// were that offer done by the child's goroutine while it begins, the
// parent's tasks done with it would wait for the lock that goroutine
// holds, and neither the abort nor the parent's run would end. The
// parent is made to lack what the child begins with, so that taking it
// is a step, recorded, which is where the abort is handed in: the
// moment an offer done at once otherwise takes. The parent's last reply
// waits for the abort to return, so that the abort finds the run in
// flight, whichever goroutine does the parent's tasks.
func TestAChildBeginningDoesNotDoItsParentsTasks(t *testing.T) {
	entered, release := make(chan struct{}), make(chan struct{})
	st := &abortAtShare{Store: store.NewMemory(), aborted: make(chan error, 1), returned: make(chan struct{})}
	deps := Deps{
		Model: Model{Provider: delegateThenDone{last: st.returned}, MaxRetries: turn.NoRetries},
		Env:   Env{SessionID: "session_begin", IDs: &CountingIDs{}},
	}
	// The hook holds the call until the parent is ready, and the
	// parent's goroutines are all done with the step that made it.
	deps.Hooks.BeforeTool("hold", 0, func(_ context.Context, call *contract.ToolCall) (Verdict, error) {
		if call.Name == "delegate_writer" {
			close(entered)
			<-release
		}
		return Verdict{}, nil
	})
	deps.Env.Store = st
	cfg := contract.AgentConfig{Model: "m", System: "parent", Delegates: []contract.Delegate{
		{Name: "writer", Config: contract.AgentConfig{Model: "m", System: "writer"}},
	}}
	a, err := CreateAgent(cfg, deps)
	if err != nil {
		t.Fatal(err)
	}
	st.a = a
	t.Cleanup(func() { _ = a.Close() })
	// What a person allowed in an earlier run of the session: the
	// delegate call is handed out with it.
	_ = a.call(context.Background(), func() error { a.state.Allowed = []string{"ink"}; return nil })
	submitted := make(chan error, 1)
	go func() {
		_, err := a.Submit(context.Background(), Text("go"))
		submitted <- err
	}()
	<-entered
	_ = a.call(context.Background(), func() error { a.state.Allowed = nil; return nil })
	close(release)
	select {
	case err := <-st.aborted:
		if err != nil {
			t.Errorf("abort: %v", err)
		}
	case <-time.After(5 * time.Second):
		// To stderr at once: the cleanup's Close may hang as well.
		buf := make([]byte, 1<<20)
		fmt.Fprintf(os.Stderr, "the abort never returned; goroutines:\n%s\n", buf[:runtime.Stack(buf, true)])
		t.Fatal("the abort never returned: the parent's task waits for the lock its beginning child's goroutine holds")
	}
	if err := <-submitted; !errors.Is(err, contract.ErrAborted) {
		t.Errorf("submit: %v, want the abort", err)
	}
}
