package store_test

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"testing"

	"github.com/batonrt/baton/contract"
	"github.com/batonrt/baton/store"
	"github.com/batonrt/baton/store/storetest"
	"github.com/batonrt/baton/store/vfs"
	"github.com/google/go-cmp/cmp"
)

// storeOp is one operation of a scripted run besides plain appends. do
// brings the store to the state the operation makes, from the state
// before it or from what a crash during it left, so the run can be
// finished after a crash; done checks that its effect is in the store.
type storeOp struct {
	name string
	do   func(ctx context.Context, st store.Store) error
	done func(ctx context.Context, st store.Store) error
}

// appendUpTo appends the script's records that session lacks, up to n.
func appendUpTo(ctx context.Context, st store.Store, session string, recs []contract.Record, n int) error {
	have, err := st.Records(ctx, session)
	if err != nil && !errors.Is(err, store.ErrNotFound) {
		return err
	}
	if len(have) >= n {
		return nil
	}
	_, err = st.Append(ctx, session, recs[len(have):n]...)
	return err
}

func holdsRecords(ctx context.Context, st store.Store, session string, n int) error {
	recs, err := st.Records(ctx, session)
	if err != nil {
		return fmt.Errorf("records of %q: %w", session, err)
	}
	if len(recs) < n {
		return fmt.Errorf("%q holds %d records, want at least %d", session, len(recs), n)
	}
	return nil
}

// nodeAt returns the node of session's chain at step.
func nodeAt(ctx context.Context, st store.Store, session string, step uint64) (store.Hash, error) {
	head, err := st.Head(ctx, session)
	if err != nil {
		return store.Hash{}, err
	}
	for n, err := range st.Walk(ctx, head) {
		if err != nil {
			return store.Hash{}, err
		}
		if n.Record.Step == step {
			return n.Hash, nil
		}
	}
	return store.Hash{}, fmt.Errorf("%q has no step %d", session, step)
}

func saveCheckpointAt(ctx context.Context, st store.Store, session string, step uint64) error {
	at, err := nodeAt(ctx, st, session, step)
	if err != nil {
		return err
	}
	return st.SaveCheckpoint(ctx, session, at, contract.RunSnapshot{SessionID: session, Phase: contract.PhaseSettled, Steps: step})
}

func holdsCheckpoint(ctx context.Context, st store.Store, session string, step uint64) error {
	cp, err := st.Checkpoint(ctx, session)
	if err != nil {
		return fmt.Errorf("checkpoint of %q: %w", session, err)
	}
	if cp.Snapshot.Steps < step {
		return fmt.Errorf("checkpoint of %q at step %d, want at least %d", session, cp.Snapshot.Steps, step)
	}
	return nil
}

// mixedOps is a run that saves checkpoints, forks, imports and appends
// under a lease, as hosts do between their appends.
func mixedOps(t *testing.T) []storeOp {
	ctx := t.Context()
	a, b, c := storetest.Script("a", 5), storetest.Script("b", 4), storetest.Script("c", 3)
	src := store.NewMemory()
	if _, err := src.Append(ctx, "c", c[:2]...); err != nil {
		t.Fatal(err)
	}
	forkAt, err := nodeAt(ctx, src, "c", 1)
	if err != nil {
		t.Fatal(err)
	}
	if err := src.Fork(ctx, "d", forkAt); err != nil {
		t.Fatal(err)
	}
	var export bytes.Buffer
	if err := src.Export(ctx, &export); err != nil {
		t.Fatal(err)
	}
	return []storeOp{
		{"append a", func(ctx context.Context, st store.Store) error { return appendUpTo(ctx, st, "a", a, 3) },
			func(ctx context.Context, st store.Store) error { return holdsRecords(ctx, st, "a", 3) }},
		{"checkpoint a", func(ctx context.Context, st store.Store) error { return saveCheckpointAt(ctx, st, "a", 3) },
			func(ctx context.Context, st store.Store) error { return holdsCheckpoint(ctx, st, "a", 3) }},
		{"fork b", func(ctx context.Context, st store.Store) error {
			if _, err := st.Head(ctx, "b"); err == nil {
				return nil
			}
			at, err := nodeAt(ctx, st, "a", 2)
			if err != nil {
				return err
			}
			return st.Fork(ctx, "b", at)
		}, func(ctx context.Context, st store.Store) error { return holdsRecords(ctx, st, "b", 2) }},
		{"append b", func(ctx context.Context, st store.Store) error { return appendUpTo(ctx, st, "b", b, 4) },
			func(ctx context.Context, st store.Store) error { return holdsRecords(ctx, st, "b", 4) }},
		{"import", func(ctx context.Context, st store.Store) error {
			_, err := st.Import(ctx, bytes.NewReader(export.Bytes()))
			return err
		}, func(ctx context.Context, st store.Store) error {
			if got, err := st.Head(ctx, "d"); err != nil || got != forkAt {
				return fmt.Errorf("head of imported %q = %s, %v; want %s", "d", got, err, forkAt)
			}
			return holdsRecords(ctx, st, "c", 2)
		}},
		{"leased append and checkpoint", func(ctx context.Context, st store.Store) error {
			l, err := st.Lease(ctx, "a")
			if err != nil {
				return err
			}
			err = appendUpTo(ctx, st, "a", a, 5)
			if err == nil {
				err = saveCheckpointAt(ctx, st, "a", 5)
			}
			return errors.Join(err, l.Release())
		}, func(ctx context.Context, st store.Store) error { return holdsCheckpoint(ctx, st, "a", 5) }},
		{"append c", func(ctx context.Context, st store.Store) error { return appendUpTo(ctx, st, "c", c, 3) },
			func(ctx context.Context, st store.Store) error { return holdsRecords(ctx, st, "c", 3) }},
	}
}

// runOps runs ops in turn, returning how many completed and the first
// error.
func runOps(ctx context.Context, st store.Store, ops []storeOp) (int, error) {
	for i, op := range ops {
		if err := op.do(ctx, st); err != nil {
			return i, fmt.Errorf("%s: %w", op.name, err)
		}
	}
	return len(ops), nil
}

// storeState is what a run leaves: each session's head and checkpoint.
type storeState struct {
	Heads       map[string]store.Hash
	Checkpoints map[string]store.Checkpoint
}

// stateOf reads st's state, checking that every checkpoint reads and
// sits at a node of its session's chain whose step it counts.
func stateOf(ctx context.Context, st store.Store) (storeState, error) {
	s := storeState{Heads: map[string]store.Hash{}, Checkpoints: map[string]store.Checkpoint{}}
	ids, err := st.Sessions(ctx)
	if err != nil {
		return s, err
	}
	for _, id := range ids {
		head, err := st.Head(ctx, id)
		if err != nil {
			return s, err
		}
		s.Heads[id] = head
		cp, err := st.Checkpoint(ctx, id)
		if errors.Is(err, store.ErrNotFound) {
			continue
		}
		if err != nil {
			return s, fmt.Errorf("checkpoint of %q: %w", id, err)
		}
		at, err := nodeAt(ctx, st, id, cp.Snapshot.Steps)
		if err != nil || at != cp.At {
			return s, fmt.Errorf("checkpoint of %q at %s, step %d, is not its chain's node at that step (%s, %v)", id, cp.At, cp.Snapshot.Steps, at, err)
		}
		s.Checkpoints[id] = cp
	}
	return s, nil
}

// TestCrashAtEveryOperationOfCheckpointForkImport crashes a run of
// checkpoints, forks, an import and leased appends at each FS operation
// in turn, keeping none, half or all of the unsynced state, and checks
// the store after the reboot: it opens, Verify passes, every checkpoint
// reads and names a node of its session, what was acknowledged is there,
// and finishing the run reaches the state of an uninterrupted one.
func TestCrashAtEveryOperationOfCheckpointForkImport(t *testing.T) {
	ctx := t.Context()
	ops := mixedOps(t)
	full := vfs.NewMem()
	st, err := store.OpenFS(full)
	if err != nil {
		t.Fatal(err)
	}
	if _, err := runOps(ctx, st, ops); err != nil {
		t.Fatal(err)
	}
	want, err := stateOf(ctx, st)
	if err != nil {
		t.Fatal(err)
	}
	total := full.Ops()
	for _, keep := range []vfs.Keep{vfs.KeepNone, vfs.KeepHalf, vfs.KeepAll} {
		t.Run("keep="+keep.String(), func(t *testing.T) {
			for at := 1; at <= total; at++ {
				if err := crashOpsOnce(ctx, ops, want, keep, at); err != nil {
					t.Fatalf("crash at op %d of %d: %v", at, total, err)
				}
			}
		})
	}
}

func crashOpsOnce(ctx context.Context, ops []storeOp, want storeState, keep vfs.Keep, at int) error {
	fs := vfs.NewMem()
	fs.CrashAfter(at)
	acked := 0
	if st, err := store.OpenFS(fs); err == nil {
		acked, err = runOps(ctx, st, ops)
		if !errors.Is(err, vfs.ErrCrashed) {
			return fmt.Errorf("run ended with %v, want a crash", err)
		}
	}
	fs.Restart(keep)
	st, err := store.OpenFS(fs)
	if err != nil {
		return fmt.Errorf("reopen: %w", err)
	}
	if err := st.Verify(ctx); err != nil {
		return fmt.Errorf("verify: %w", err)
	}
	if _, err := stateOf(ctx, st); err != nil {
		return fmt.Errorf("after the crash in %s: %w", ops[acked].name, err)
	}
	for _, op := range ops[:acked] {
		if err := op.done(ctx, st); err != nil {
			return fmt.Errorf("acknowledged %s lost: %w", op.name, err)
		}
	}
	if _, err := runOps(ctx, st, ops[acked:]); err != nil {
		return fmt.Errorf("finishing the run after a crash in %s: %w", ops[acked].name, err)
	}
	got, err := stateOf(ctx, st)
	if err != nil {
		return err
	}
	if d := cmp.Diff(want, got); d != "" {
		return fmt.Errorf("state after finishing the run differs from an uninterrupted one (-want +got):\n%s", d)
	}
	return nil
}

// TestFaultAtEveryOperationOfCheckpointForkImport fails each mutating FS
// operation of the same run in turn, once or from then on, and checks
// that the failure surfaces as ErrIO and that, the disk repaired, the
// same store and one opened again hold what was acknowledged and finish
// the run to the state of an uninterrupted one.
func TestFaultAtEveryOperationOfCheckpointForkImport(t *testing.T) {
	ctx := t.Context()
	ops := mixedOps(t)
	counted := vfs.NewFaulty(vfs.NewMem())
	st, err := store.OpenFS(counted)
	if err != nil {
		t.Fatal(err)
	}
	if _, err := runOps(ctx, st, ops); err != nil {
		t.Fatal(err)
	}
	want, err := stateOf(ctx, st)
	if err != nil {
		t.Fatal(err)
	}
	for _, sticky := range []bool{false, true} {
		for at := 1; at <= counted.Ops(); at++ {
			if err := faultOpsOnce(ctx, ops, want, at, sticky); err != nil {
				t.Fatalf("sticky=%v: fault at op %d of %d: %v", sticky, at, counted.Ops(), err)
			}
		}
	}
}

func faultOpsOnce(ctx context.Context, ops []storeOp, want storeState, at int, sticky bool) error {
	fs := vfs.NewFaulty(vfs.NewMem())
	fs.Inject(at, sticky)
	st, err := store.OpenFS(fs)
	acked := 0
	if err == nil {
		acked, err = runOps(ctx, st, ops)
	}
	if !errors.Is(err, store.ErrIO) {
		return fmt.Errorf("got %v, want ErrIO", err)
	}
	fs.Clear()
	check := func(st store.Store, finish bool) error {
		if err := st.Verify(ctx); err != nil {
			return fmt.Errorf("verify: %w", err)
		}
		if _, err := stateOf(ctx, st); err != nil {
			return err
		}
		for _, op := range ops[:acked] {
			if err := op.done(ctx, st); err != nil {
				return fmt.Errorf("acknowledged %s lost: %w", op.name, err)
			}
		}
		if finish {
			if _, err := runOps(ctx, st, ops[acked:]); err != nil {
				return fmt.Errorf("finishing the run: %w", err)
			}
		}
		got, err := stateOf(ctx, st)
		if err != nil {
			return err
		}
		if d := cmp.Diff(want, got); finish && d != "" {
			return fmt.Errorf("state after finishing the run differs from an uninterrupted one (-want +got):\n%s", d)
		}
		return nil
	}
	if st != nil {
		if err := check(st, true); err != nil {
			return fmt.Errorf("same store after the fault: %w", err)
		}
		if err := st.Close(); err != nil {
			return fmt.Errorf("close: %w", err)
		}
		acked = len(ops)
	}
	again, err := store.OpenFS(fs)
	if err != nil {
		return fmt.Errorf("reopen: %w", err)
	}
	return check(again, true)
}
