package store_test

import (
	"errors"
	"fmt"
	"syscall"
	"testing"

	"github.com/batonrt/baton/store"
	"github.com/batonrt/baton/store/vfs"
)

// TestFaultAtEveryOperation fails each FS operation of a script once, and
// from it on, with ENOSPC (EIO on syncs): the append gives ErrIO naming
// the errno, and once the fault is gone the same store and a reopened one
// pass Verify, keep what was acknowledged, and finish the script to the
// uninterrupted heads.
func TestFaultAtEveryOperation(t *testing.T) {
	ctx := t.Context()
	w := newWorkload(2, 6)
	want, err := w.heads(ctx)
	if err != nil {
		t.Fatal(err)
	}
	total := opsOf(t, w)
	for _, sticky := range []bool{false, true} {
		for at := 1; at <= total; at++ {
			t.Run(fmt.Sprintf("sticky=%v/op=%d", sticky, at), func(t *testing.T) {
				if err := faultOnce(t, w, want, at, sticky); err != nil {
					t.Fatal(err)
				}
			})
		}
	}
}

func faultOnce(t *testing.T, w workload, want map[string]store.Hash, at int, sticky bool) error {
	ctx := t.Context()
	mem := vfs.NewMem()
	fs := vfs.NewFaulty(mem)
	fs.Inject(at, sticky)
	acked := map[string]int{}
	st, err := store.OpenFS(fs)
	if err == nil {
		err = w.run(ctx, st, acked)
	}
	if err == nil {
		return fmt.Errorf("no error surfaced")
	}
	if !errors.Is(err, store.ErrIO) || !(errors.Is(err, syscall.ENOSPC) || errors.Is(err, syscall.EIO)) {
		return fmt.Errorf("got %v, want ErrIO with ENOSPC or EIO", err)
	}
	fs.Clear()
	if st != nil {
		if err := w.check(ctx, st, acked, want); err != nil {
			return fmt.Errorf("same store after the fault: %w", err)
		}
	}
	again, err := store.OpenFS(fs)
	if err != nil {
		return fmt.Errorf("reopen: %w", err)
	}
	return w.check(ctx, again, acked, want)
}
