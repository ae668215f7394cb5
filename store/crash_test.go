package store_test

import (
	"errors"
	"flag"
	"fmt"
	"sync/atomic"
	"testing"

	"github.com/batonrt/baton/store"
	"github.com/batonrt/baton/store/vfs"
)

var crashScale = flag.Int("crash.scale", 1, "multiply the crash test's script length (more crash points)")

func errIsNotFound(err error) bool { return errors.Is(err, store.ErrNotFound) }

// crashWorkloads are many short scripts of different shapes (sessions,
// lengths, batches), short because each crash point replays its script
// from the start; together they give at least minPoints crash points.
func crashWorkloads(t *testing.T, minPoints int) []workload {
	var out []workload
	points := 0
	for i := 0; points < minPoints; i++ {
		w := newWorkload(1+i%3, 3+i%5)
		points += 3 * opsOf(t, w)
		out = append(out, w)
	}
	return out
}

func opsOf(t *testing.T, w workload) int {
	fs := vfs.NewMem()
	st, err := store.OpenFS(fs)
	if err != nil {
		t.Fatal(err)
	}
	if err := w.run(t.Context(), st, map[string]int{}); err != nil {
		t.Fatal(err)
	}
	return fs.Ops()
}

// TestCrashAtEveryOperation crashes scripted multi-session runs at each FS
// operation index in turn, keeping none, half or all of the unsynced
// state, and checks the store after the reboot: it opens, Verify passes,
// every acknowledged record is there, nothing else but whole script
// records is, and finishing the script reaches the uninterrupted heads.
func TestCrashAtEveryOperation(t *testing.T) {
	var points atomic.Int64
	workloads := crashWorkloads(t, 5000**crashScale)
	t.Run("all", func(t *testing.T) {
		for _, keep := range []vfs.Keep{vfs.KeepNone, vfs.KeepHalf, vfs.KeepAll} {
			t.Run("keep="+keep.String(), func(t *testing.T) {
				t.Parallel()
				for _, w := range workloads {
					points.Add(int64(crashWorkload(t, w, keep)))
				}
			})
		}
	})
	if !t.Failed() && points.Load() < 5000 {
		t.Fatalf("only %d crash points, want at least 5000", points.Load())
	}
	t.Logf("%d crash points in %d scripts", points.Load(), len(workloads))
}

func crashWorkload(t *testing.T, w workload, keep vfs.Keep) int {
	ctx := t.Context()
	want, err := w.heads(ctx)
	if err != nil {
		t.Fatal(err)
	}
	full := vfs.NewMem()
	st, err := store.OpenFS(full)
	if err != nil {
		t.Fatal(err)
	}
	if err := w.run(ctx, st, map[string]int{}); err != nil {
		t.Fatal(err)
	}
	total := full.Ops()
	for at := 1; at <= total; at++ {
		if err := crashOnce(t, w, want, keep, at); err != nil {
			t.Fatalf("crash at op %d of %d: %v", at, total, err)
		}
	}
	return total
}

func crashOnce(t *testing.T, w workload, want map[string]store.Hash, keep vfs.Keep, at int) error {
	ctx := t.Context()
	fs := vfs.NewMem()
	fs.CrashAfter(at)
	acked := map[string]int{}
	if st, err := store.OpenFS(fs); err == nil {
		err = w.run(ctx, st, acked)
		if err == nil || !errors.Is(err, vfs.ErrCrashed) {
			return fmt.Errorf("run ended with %v, want a crash", err)
		}
		if !errors.Is(err, store.ErrIO) {
			return fmt.Errorf("crash surfaced as %v, want ErrIO", err)
		}
	}
	fs.Restart(keep)
	st, err := store.OpenFS(fs)
	if err != nil {
		return fmt.Errorf("reopen: %w", err)
	}
	return w.check(ctx, st, acked, want)
}
