package conductor_test

import (
	"context"
	"runtime"
	"sync"
	"testing"
	"time"

	"github.com/batonrt/baton/conductor"
	"github.com/batonrt/baton/contract"
)

// TestParkedRunIsOneGoroutine: a run waiting on its model costs one
// goroutine, the caller's in Submit, which runs the model call itself;
// the agent keeps none of its own and the tool calls before it left none
// behind.
func TestParkedRunIsOneGoroutine(t *testing.T) {
	const runs = 20
	w := workload{"S1", 10, 1}
	box := toolBox(t, echoTool(t))
	cfg := contract.AgentConfig{Model: "workload", MaxTurns: w.turns}
	release := make(chan struct{})
	var arrived, done sync.WaitGroup
	arrived.Add(runs)
	before := runtime.NumGoroutine()
	for range runs {
		done.Go(func() {
			model := &parkedModel{newWorkloadModel(w), 5, &arrived, release}
			a, err := conductor.CreateAgent(cfg, conductor.Deps{Model: conductor.Model{Provider: model}, Tools: conductor.Tools{Box: box}})
			if err != nil {
				arrived.Done()
				t.Error(err)
				return
			}
			defer a.Close()
			if snap, err := a.Submit(context.Background(), conductor.Text("go")); err != nil || snap.Turns != w.turns {
				t.Errorf("err %v, turns %d", err, snap.Turns)
			}
		})
	}
	arrived.Wait()
	// A tool call's goroutine may still be returning when the next model
	// call parks: wait, bounded, for the count to settle.
	extra := 0
	for range 500 {
		if extra = runtime.NumGoroutine() - before; extra <= runs {
			break
		}
		time.Sleep(2 * time.Millisecond)
	}
	close(release)
	done.Wait()
	if extra > runs {
		t.Fatalf("%d runs parked in a model call keep %d goroutines, want one each", runs, extra)
	}
}
