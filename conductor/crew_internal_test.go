package conductor

import (
	"context"
	"encoding/json"
	"fmt"
	"iter"
	"runtime"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/batonrt/baton/contract"
	"github.com/batonrt/baton/dispatch"
	"github.com/batonrt/baton/store"
	"github.com/batonrt/baton/turn"
)

// batchThenHang answers its first call with n calls of "slow" and holds
// every later one until its context ends.
type batchThenHang struct {
	n     int
	calls atomic.Int32
}

func (p *batchThenHang) Stream(ctx context.Context, _ contract.ModelRequest) iter.Seq2[turn.Chunk, error] {
	return func(yield func(turn.Chunk, error) bool) {
		if p.calls.Add(1) > 1 {
			<-ctx.Done()
			yield(turn.Chunk{}, ctx.Err())
			return
		}
		for i := range p.n {
			if !yield(turn.Chunk{Kind: turn.ChunkToolCallStart, Index: i, CallID: fmt.Sprint("c", i), Name: "slow"}, nil) ||
				!yield(turn.Chunk{Kind: turn.ChunkToolCallArgs, Index: i, Text: `{}`}, nil) {
				return
			}
		}
		yield(turn.Chunk{Kind: turn.ChunkStop, Stop: contract.StopToolUse}, nil)
	}
}

// slowBox is a box of one tool named "slow", the calls batchThenHang
// makes, running fn.
func slowBox(t *testing.T, description string, fn dispatch.RawFunc) *dispatch.ToolBox {
	t.Helper()
	slow, err := dispatch.NewTool(contract.ToolDescriptor{Name: "slow", Description: description, InputSchema: json.RawMessage(`{"type":"object"}`)}, fn)
	if err != nil {
		t.Fatal(err)
	}
	box, err := dispatch.NewToolBox(slow)
	if err != nil {
		t.Fatal(err)
	}
	return box
}

// abortInBatch is a store that, while the step starting a batch is being
// made durable, has the run aborted and waits for the abort to be queued
// behind that step: the run ends while its calls are left for a worker.
type abortInBatch struct {
	store.Store
	a    *Agent
	once atomic.Bool
}

func (s *abortInBatch) Append(ctx context.Context, id string, recs ...contract.Record) (store.Hash, error) {
	for _, r := range recs {
		if rep, ok := r.Signal.(contract.ModelReplied); ok && len(rep.Reply.Calls()) > 1 && s.once.CompareAndSwap(false, true) {
			go s.a.Abort(context.Background(), contract.AbortNow)
			deadline := time.Now().Add(5 * time.Second)
			for s.a.queued() < 1 && time.Now().Before(deadline) {
				time.Sleep(time.Millisecond)
			}
		}
	}
	return s.Store.Append(ctx, id, recs...)
}

// A run that ends while the calls of a batch wait for a worker leaves
// none of them behind: each is answered, no tool is counted as one that
// ignored its cancellation, and Close returns at once.
func TestBatchLeftWhenTheRunEndsIsAnsweredWhole(t *testing.T) {
	box := slowBox(t, "Waits.", func(ctx context.Context, _ json.RawMessage) (contract.ToolOutcome, error) {
		select {
		case <-ctx.Done():
			return contract.ToolOutcome{}, ctx.Err()
		case <-time.After(5 * time.Second):
			return contract.ToolOutcome{Content: "late"}, nil
		}
	})
	st := &abortInBatch{Store: store.NewMemory()}
	a, err := CreateAgent(contract.AgentConfig{Model: "scripted"}, Deps{
		Model: Model{Provider: &batchThenHang{n: 3}, MaxRetries: turn.NoRetries},
		Tools: Tools{Box: box},
		Env:   Env{Store: st},
	})
	if err != nil {
		t.Fatal(err)
	}
	st.a = a
	if snap, err := a.Submit(context.Background(), Text("go")); err == nil || snap.Phase != contract.PhaseFaulted {
		t.Fatalf("Submit = phase %s, %v; want faulted by the abort", snap.Phase, err)
	}
	deadline := time.Now().Add(5 * time.Second)
	for a.sched.Stragglers() > 0 && time.Now().Before(deadline) {
		time.Sleep(time.Millisecond)
	}
	if n := a.sched.Stragglers(); n > 0 {
		t.Errorf("%d calls of the ended run were never run nor answered", n)
	}
	start := time.Now()
	if err := a.Close(); err != nil {
		t.Errorf("Close = %v after %v", err, time.Since(start))
	}
}

// nothingDone is a job that counts its runs and brings nothing, as a
// call answered as cancelled before it ran does.
type nothingDone struct{ ran *int }

func (c nothingDone) do(*Agent) task { *c.ran++; return task{} }

// A helper handed to the caller waiting for the run is not dropped with
// the run: the caller leaving runs the calls it was called for. Step by
// step: the caller is free but not yet back in its select when a worker
// hands in a batch of three, and the first call outlasts helperWait, so
// a helper is called, which goes to the caller; the run ends, and the
// caller leaves (dropHost).
func TestHelperLeftToALeavingCallerRunsTheBatch(t *testing.T) {
	a := &Agent{}
	ctx, cancel := context.WithCancel(context.Background())
	run := &runState{ctx: ctx, cancel: cancel, host: make(chan hosted, 1)}
	run.helper = helper{run: run}
	run.crew.workers, run.crew.running = &a.workers, &run.wg
	run.crew.hostFree = true
	run.crew.call = func() { a.startCounted(run, &run.helper) }
	run.crew.patience = time.Hour // its firing is this test's
	ran := 0
	run.crew.finishing()
	for range 3 {
		if !run.crew.handTo(nothingDone{&ran}) {
			t.Fatal("the handing worker took no job")
		}
	}
	j := run.crew.finished(false)
	run.crew.waited()
	run.crew.mu.Lock()
	called := run.crew.calling
	run.crew.mu.Unlock()
	if !called {
		t.Fatal("no helper was called for the calls behind the first")
	}
	a.work(run, j, false)
	run.end()
	a.dropHost(run)
	a.workers.Wait()
	if ran != 3 || len(run.crew.next) != 0 {
		t.Errorf("%d of the batch's 3 calls ran; %d left for no one", ran, len(run.crew.next))
	}
}

// A helper is called for the jobs left behind the one a worker took only
// when its timer fires (the job outlasted the crew's patience): a worker
// that takes the jobs one after another within it calls none, and the
// timer stops once none is left. Once called, a helper that takes a job
// with more left calls the next at once.
func TestAHelperIsCalledOnlyForAJobThatOutlastsThePatience(t *testing.T) {
	newCrew := func() (*crew, *int) {
		called := 0
		c := &crew{workers: &sync.WaitGroup{}, running: &sync.WaitGroup{}, patience: time.Hour}
		c.call = func() { called++; c.workers.Done() }
		c.finishing()
		for range 3 {
			if !c.handTo(nothingDone{new(int)}) {
				t.Fatal("the handing worker took no job")
			}
		}
		return c, &called
	}
	state := func(c *crew) (armed, calling bool, left int) {
		c.mu.Lock()
		defer c.mu.Unlock()
		return c.armed, c.calling, len(c.next)
	}

	c, called := newCrew()
	for i := range 3 {
		if c.finished(false) == nil {
			t.Fatalf("job %d: the worker found none left", i+1)
		}
		armed, calling, left := state(c)
		if *called != 0 || calling || armed != (left > 0) {
			t.Fatalf("after taking job %d: %d helpers called, calling %v, timer armed %v with %d left", i+1, *called, calling, armed, left)
		}
		c.finishing()
	}

	c, called = newCrew()
	c.finished(false)
	c.waited()
	if armed, calling, _ := state(c); *called != 1 || !calling || armed {
		t.Fatalf("after the timer fired: %d helpers called, calling %v, armed %v; want one called, the timer stopped", *called, calling, armed)
	}
	j, help := c.take()
	if j == nil || !help {
		t.Fatalf("the helper took %v and called another: %v; want the next job and another helper", j, help)
	}
	c.startHelper()
	if armed, _, left := state(c); armed || left != 1 {
		t.Fatalf("after the helper took a job: armed %v, %d left; want the timer stopped, 1 left", armed, left)
	}
}

// A run that ends while a worker runs a batch's first call, before a
// helper was called for the others, has them answered at once: they are
// not left behind a call that ignores its cancellation, counted meanwhile
// as calls that ignored theirs. One processor, so that the run ends
// before the helper's timer can fire.
func TestCallsBehindOneIgnoringItsCancellationAreAnswered(t *testing.T) {
	defer runtime.GOMAXPROCS(runtime.GOMAXPROCS(1))
	var a *Agent
	release := make(chan struct{})
	box := slowBox(t, "The first aborts the run and ignores it.", func(ctx context.Context, _ json.RawMessage) (contract.ToolOutcome, error) {
		if dispatch.CallID(ctx) != "c0" {
			return contract.ToolOutcome{Content: "quick"}, nil
		}
		_ = a.Abort(t.Context(), contract.AbortNow)
		<-release
		return contract.ToolOutcome{Content: "late"}, nil
	})
	var err error
	a, err = CreateAgent(contract.AgentConfig{Model: "scripted"}, Deps{
		Model: Model{Provider: &batchThenHang{n: 3}, MaxRetries: turn.NoRetries},
		Tools: Tools{Box: box, Grace: time.Hour},
		Env:   Env{Store: store.NewMemory()},
	})
	if err != nil {
		t.Fatal(err)
	}
	done := make(chan struct{})
	go func() {
		defer close(done)
		_, _ = a.Submit(context.Background(), Text("go"))
	}()
	n := 0
	for deadline := time.Now().Add(5 * time.Second); time.Now().Before(deadline); time.Sleep(time.Millisecond) {
		if n = a.sched.Stragglers(); n == 1 {
			break
		}
	}
	close(release)
	<-done
	if err := a.Close(); err != nil {
		t.Error(err)
	}
	if n != 1 {
		t.Fatalf("%d calls counted as ignoring their cancellation for 5 s; only c0 did", n)
	}
}
