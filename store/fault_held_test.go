package store_test

import (
	"errors"
	"fmt"
	"syscall"
	"testing"

	"github.com/batonrt/baton/store"
	"github.com/batonrt/baton/store/vfs"
)

// TestFaultAtEveryOperationWhileHeld is TestFaultAtEveryOperation for a
// writer holding its sessions' leases, as a host driving them does: the
// log's handle stays open between commits and the log is not read again.
// The append gives ErrIO; once the fault is gone the holder, still
// holding the leases, reads every acknowledged record and finishes the
// script, and so does a store opened after the leases are released.
func TestFaultAtEveryOperationWhileHeld(t *testing.T) {
	ctx := t.Context()
	w := newWorkload(2, 6)
	want, err := w.heads(ctx)
	if err != nil {
		t.Fatal(err)
	}
	counted := vfs.NewFaulty(vfs.NewMem())
	st, err := store.OpenFS(counted)
	if err != nil {
		t.Fatal(err)
	}
	leases := holdAll(t, st, w.sessions)
	before := counted.Ops()
	if err := w.run(ctx, st, map[string]int{}); err != nil {
		t.Fatal(err)
	}
	total := counted.Ops() - before
	releaseAll(t, leases)
	if err := st.Close(); err != nil {
		t.Fatal(err)
	}
	for _, sticky := range []bool{false, true} {
		for at := 1; at <= total; at++ {
			t.Run(fmt.Sprintf("sticky=%v/op=%d", sticky, at), func(t *testing.T) {
				if err := faultHeldOnce(t, w, want, at, sticky); err != nil {
					t.Fatal(err)
				}
			})
		}
	}
}

func holdAll(t *testing.T, st store.Store, sessions []string) []*store.Lease {
	t.Helper()
	var out []*store.Lease
	for _, id := range sessions {
		l, err := st.Lease(t.Context(), id)
		if err != nil {
			t.Fatal(err)
		}
		out = append(out, l)
	}
	return out
}

func releaseAll(t *testing.T, leases []*store.Lease) {
	t.Helper()
	for _, l := range leases {
		if err := l.Release(); err != nil {
			t.Errorf("release: %v", err)
		}
	}
}

func faultHeldOnce(t *testing.T, w workload, want map[string]store.Hash, at int, sticky bool) error {
	ctx := t.Context()
	mem := vfs.NewMem()
	fs := vfs.NewFaulty(mem)
	st, err := store.OpenFS(fs)
	if err != nil {
		return err
	}
	defer st.Close()
	leases := holdAll(t, st, w.sessions)
	fs.Inject(at, sticky)
	acked := map[string]int{}
	err = w.run(ctx, st, acked)
	if err == nil {
		return fmt.Errorf("no error surfaced")
	}
	if !errors.Is(err, store.ErrIO) || !(errors.Is(err, syscall.ENOSPC) || errors.Is(err, syscall.EIO)) {
		return fmt.Errorf("got %v, want ErrIO with ENOSPC or EIO", err)
	}
	fs.Clear()
	if err := w.check(ctx, st, acked, want); err != nil {
		return fmt.Errorf("same store, leases held, after the fault: %w", err)
	}
	releaseAll(t, leases)
	again, err := store.OpenFS(fs)
	if err != nil {
		return fmt.Errorf("reopen: %w", err)
	}
	defer again.Close()
	return w.check(ctx, again, acked, want)
}
