//go:build !race

package conductor_test

import "testing"

// TestParkedRunKeepsOneStackSize: a run in flight keeps its caller's
// goroutine, parked in the model call, within an 8 KiB stack. The frames
// under a run's first model call come within a few hundred bytes of it,
// and a few bytes more there (a field added to the snapshot, which those
// frames hold by value) double every run's stack to 16 KiB: 8 MiB more
// for 1,000 runs in flight. The race detector's instrumentation takes the
// stack past 8 KiB anyway, so this runs without it.
func TestParkedRunKeepsOneStackSize(t *testing.T) {
	const runs = 200
	s0, _, _ := footprint()
	release := parkRuns(t, runs)
	s1, _, _ := footprint()
	release()
	if perRun := (s1 - s0) / runs; perRun > 9<<10 {
		t.Errorf("a parked run keeps %.1f KiB of stack, over 8 KiB: a frame under the run's first model call grew", perRun/1024)
	}
}
