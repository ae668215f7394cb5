package conductor_test

import (
	"runtime"
	"testing"
	"time"
)

// TestParkedRunIsOneGoroutine: a run waiting on its model costs one
// goroutine, the caller's in Submit, which runs the model call itself;
// the agent keeps none of its own and the tool calls before it left none
// behind.
func TestParkedRunIsOneGoroutine(t *testing.T) {
	const runs = 20
	before := runtime.NumGoroutine()
	release := parkRuns(t, runs)
	// A tool call's goroutine may still be returning when the next model
	// call parks: wait, bounded, for the count to settle.
	extra := 0
	for range 500 {
		if extra = runtime.NumGoroutine() - before; extra <= runs {
			break
		}
		time.Sleep(2 * time.Millisecond)
	}
	release()
	if extra > runs {
		t.Fatalf("%d runs parked in a model call keep %d goroutines, want one each", runs, extra)
	}
}
