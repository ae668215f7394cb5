package store_test

import (
	"context"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path"
	"path/filepath"
	"testing"

	"github.com/batonrt/baton/store"
	"github.com/batonrt/baton/store/storetest"
	"github.com/batonrt/baton/store/vfs"
	"github.com/google/go-cmp/cmp"
)

// looseMem returns an in-memory FS holding the format 1 fixture, durable.
func looseMem(t *testing.T) *vfs.Mem {
	t.Helper()
	m := vfs.NewMem()
	const src = "testdata/loose-v1"
	var dirs []string
	err := filepath.WalkDir(src, func(p string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		rel, _ := filepath.Rel(src, p)
		rel = filepath.ToSlash(rel)
		if d.IsDir() {
			dirs = append(dirs, rel)
			return m.MkdirAll(rel)
		}
		b, err := os.ReadFile(p)
		if err != nil {
			return err
		}
		f, err := m.Create(rel)
		if err != nil {
			return err
		}
		if _, err := f.Write(b); err != nil {
			return err
		}
		if err := f.Sync(); err != nil {
			return err
		}
		return f.Close()
	})
	if err != nil {
		t.Fatal(err)
	}
	for _, d := range dirs {
		if err := m.SyncDir(d); err != nil {
			t.Fatal(err)
		}
		if d != "." {
			if err := m.SyncDir(path.Dir(d)); err != nil {
				t.Fatal(err)
			}
		}
	}
	return m
}

// looseOps go on from the format 1 fixture (see looseFixture): appends to
// a session whose head is a ref file, a checkpoint over the one a ref
// file names, and a fork at a loose node.
func looseOps() []storeOp {
	main, sub := storetest.Script("r1", 10), storetest.Script("sub", 4)
	return []storeOp{
		{"append main", func(ctx context.Context, st store.Store) error { return appendUpTo(ctx, st, "main", main, 10) },
			func(ctx context.Context, st store.Store) error { return holdsRecords(ctx, st, "main", 10) }},
		{"checkpoint main", func(ctx context.Context, st store.Store) error { return saveCheckpointAt(ctx, st, "main", 10) },
			func(ctx context.Context, st store.Store) error { return holdsCheckpoint(ctx, st, "main", 10) }},
		{"fork new", func(ctx context.Context, st store.Store) error {
			if _, err := st.Head(ctx, "new"); err == nil {
				return nil
			}
			at, err := nodeAt(ctx, st, "child", 3)
			if err != nil {
				return err
			}
			return st.Fork(ctx, "new", at)
		}, func(ctx context.Context, st store.Store) error { return holdsRecords(ctx, st, "new", 3) }},
		{"append child", func(ctx context.Context, st store.Store) error { return appendUpTo(ctx, st, "child", sub, 4) },
			func(ctx context.Context, st store.Store) error { return holdsRecords(ctx, st, "child", 4) }},
	}
}

// TestCrashAtEveryOperationUpgradingALooseFolder crashes the opening of a
// format 1 folder, and the first commits to it, at each FS operation in
// turn, keeping none, half or all of the unsynced state: after the
// reboot the folder opens, verifies, reads every session it held as it
// was or with what was acknowledged since, and finishing the run reaches
// the state of an uninterrupted one.
func TestCrashAtEveryOperationUpgradingALooseFolder(t *testing.T) {
	ctx := t.Context()
	ops := looseOps()
	full := looseMem(t)
	start := full.Ops()
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
	before, err := stateOf(ctx, must(store.OpenFS(looseMem(t))))
	if err != nil {
		t.Fatal(err)
	}
	if len(before.Heads) != 3 || len(before.Checkpoints) != 1 {
		t.Fatalf("the fixture reads as %d sessions and %d checkpoints, want 3 and 1", len(before.Heads), len(before.Checkpoints))
	}
	total := full.Ops() - start
	for _, keep := range []vfs.Keep{vfs.KeepNone, vfs.KeepHalf, vfs.KeepAll} {
		t.Run("keep="+keep.String(), func(t *testing.T) {
			for at := 1; at <= total; at++ {
				if err := crashLooseOnce(t, ops, before, want, keep, at); err != nil {
					t.Fatalf("crash at op %d of %d: %v", at, total, err)
				}
			}
		})
	}
}

func crashLooseOnce(t *testing.T, ops []storeOp, before, want storeState, keep vfs.Keep, at int) error {
	ctx := t.Context()
	m := looseMem(t)
	m.CrashAfter(at)
	acked := 0
	st, err := store.OpenFS(m)
	if err == nil {
		acked, err = runOps(ctx, st, ops)
	}
	if !errors.Is(err, vfs.ErrCrashed) {
		return fmt.Errorf("run ended with %v, want a crash", err)
	}
	m.Restart(keep)
	st, err = store.OpenFS(m)
	if err != nil {
		return fmt.Errorf("reopen: %w", err)
	}
	if err := st.Verify(ctx); err != nil {
		return fmt.Errorf("verify: %w", err)
	}
	got, err := stateOf(ctx, st)
	if err != nil {
		return err
	}
	for id, h := range before.Heads {
		if _, ok := got.Heads[id]; !ok {
			return fmt.Errorf("session %q of the folder lost (had head %s)", id, h)
		}
	}
	if _, ok := got.Checkpoints["main"]; !ok {
		return errors.New("the checkpoint of the folder lost")
	}
	for _, op := range ops[:acked] {
		if err := op.done(ctx, st); err != nil {
			return fmt.Errorf("acknowledged %s lost: %w", op.name, err)
		}
	}
	if _, err := runOps(ctx, st, ops[acked:]); err != nil {
		return fmt.Errorf("finishing the run: %w", err)
	}
	if got, err = stateOf(ctx, st); err != nil {
		return err
	}
	if d := cmp.Diff(want, got); d != "" {
		return fmt.Errorf("state after finishing the run differs from an uninterrupted one (-want +got):\n%s", d)
	}
	return nil
}
