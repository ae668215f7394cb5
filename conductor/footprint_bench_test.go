package conductor_test

import (
	"context"
	"errors"
	"fmt"
	"iter"
	"runtime"
	"sync"
	"testing"
	"time"

	"github.com/batonrt/baton/conductor"
	"github.com/batonrt/baton/contract"
	"github.com/batonrt/baton/dispatch"
	"github.com/batonrt/baton/turn"
)

// parkedModel answers like workloadModel, except that its call after
// `at` replies waits until release is closed: every run is then held at
// the same point of its life.
type parkedModel struct {
	*workloadModel
	at      int
	arrived *sync.WaitGroup
	release chan struct{}
}

func (m *parkedModel) Stream(ctx context.Context, req contract.ModelRequest) iter.Seq2[turn.Chunk, error] {
	history := req.History
	return func(yield func(turn.Chunk, error) bool) {
		replied := repliesIn(history)
		if replied == m.at {
			m.arrived.Done()
			select {
			case <-m.release:
			case <-ctx.Done():
				yield(turn.Chunk{}, ctx.Err())
				return
			}
		}
		m.answer(replied, time.Time{}, yield)
	}
}

// BenchmarkRunFootprint holds 1,000 runs of S1 in flight, each parked in
// its sixth model call, and reports what one run keeps at that point
// after two collections: its goroutines (the caller's in Submit among
// them), their stacks and the live heap. It is the steady part of what
// BenchmarkConcurrentRuns measures as resident memory, without the
// garbage between collections.
func BenchmarkRunFootprint(b *testing.B) {
	const runs = 1000
	var goroutines, stack, heap float64
	for b.Loop() {
		s0, h0, g0 := footprint()
		release := parkRuns(b, runs)
		s1, h1, g1 := footprint()
		release()
		goroutines += float64(g1-g0) / runs
		stack += (s1 - s0) / runs / 1024
		heap += (h1 - h0) / runs / 1024
	}
	n := float64(b.N)
	b.ReportMetric(goroutines/n, "goroutines/run")
	b.ReportMetric(stack/n, "stack-KiB/run")
	b.ReportMetric(heap/n, "heap-KiB/run")
}

// parkRuns starts n runs of S1, each its own agent on the defaults and
// its own caller goroutine, and returns once all are parked in their
// sixth model call; release lets them finish and waits for them. A run
// that fails fails tb.
func parkRuns(tb testing.TB, n int) (release func()) {
	w := workload{"S1", 10, 1}
	box := toolBox(tb, echoTool(tb))
	cfg := contract.AgentConfig{Model: "workload", MaxTurns: w.turns}
	gate := make(chan struct{})
	var arrived, done sync.WaitGroup
	arrived.Add(n)
	model := &parkedModel{newWorkloadModel(w), 5, &arrived, gate}
	for range n {
		done.Go(func() {
			if err := runOnce(&cfg, box, model, w.turns); err != nil {
				if errors.Is(err, errNotCreated) {
					arrived.Done()
				}
				tb.Error(err)
			}
		})
	}
	arrived.Wait()
	return func() {
		close(gate)
		done.Wait()
	}
}

// footprint collects twice (the second frees what the first's
// finalizers and stack shrinking let go) and returns the stack and live
// heap bytes and the goroutine count.
func footprint() (stack, heap float64, goroutines int) {
	runtime.GC()
	runtime.GC()
	var ms runtime.MemStats
	runtime.ReadMemStats(&ms)
	return float64(ms.StackInuse), float64(ms.HeapAlloc), runtime.NumGoroutine()
}

var errNotCreated = errors.New("agent not created")

// runOnce runs the workload on a fresh agent on the defaults until it
// ends. The footprint benchmarks start each run on a goroutine of its
// own, whose stack holds the frames below Submit for as long as the run
// lasts: they are kept to what a host's handler would hold, the agent
// made in one function and submitted to in another.
func runOnce(cfg *contract.AgentConfig, box *dispatch.ToolBox, model turn.Provider, turns int) error {
	a, err := newWorkloadAgent(cfg, box, model)
	if err != nil {
		return err
	}
	got, err := submitGo(a)
	if cerr := a.Close(); err == nil {
		err = cerr
	}
	if err == nil && got != turns {
		err = fmt.Errorf("run ended after %d turns, want %d", got, turns)
	}
	return err
}

// submitGo submits "go" and returns how many turns the run took.
//
//go:noinline
func submitGo(a *conductor.Agent) (turns int, err error) {
	snap, err := a.Submit(context.Background(), conductor.Text("go"))
	return snap.Turns, err
}

//go:noinline
func newWorkloadAgent(cfg *contract.AgentConfig, box *dispatch.ToolBox, model turn.Provider) (*conductor.Agent, error) {
	a, err := conductor.CreateAgent(*cfg, conductor.Deps{Model: conductor.Model{Provider: model}, Tools: conductor.Tools{Box: box}})
	if err != nil {
		return nil, fmt.Errorf("%w: %w", errNotCreated, err)
	}
	return a, nil
}
