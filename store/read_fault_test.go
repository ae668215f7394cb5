package store_test

import (
	"errors"
	"fmt"
	"sync/atomic"
	"syscall"
	"testing"

	"github.com/batonrt/baton/store"
	"github.com/batonrt/baton/store/storetest"
	"github.com/batonrt/baton/store/vfs"
	"github.com/google/go-cmp/cmp"
)

// readFailFS fails every read of a log with EIO while failing is set, as
// a disk with a bad sector or a dropped network mount does.
type readFailFS struct {
	vfs.FS
	failing atomic.Bool
}

func (r *readFailFS) ReadAt(name string, p []byte, off int64) (int, error) {
	if r.failing.Load() {
		return 0, fmt.Errorf("read %s: %w", name, syscall.EIO)
	}
	return r.FS.ReadAt(name, p, off)
}

// A log that cannot be read for a while is an I/O error, not damage: the
// session is not refused for good, and once reads work again it reads
// whole and takes the next append, in the store that met the error.
func TestUnreadableLogIsNotDamage(t *testing.T) {
	ctx := t.Context()
	mem := vfs.NewMem()
	recs := storetest.Script("r", 4)
	writer := must(store.OpenFS(mem))
	if _, err := writer.Append(ctx, "s", recs[:3]...); err != nil {
		t.Fatal(err)
	}
	fsys := &readFailFS{FS: mem}
	st := must(store.OpenFS(fsys))
	defer st.Close()
	fsys.failing.Store(true)
	if _, err := st.Records(ctx, "s"); !errors.Is(err, store.ErrIO) || errors.Is(err, store.ErrCorrupt) {
		t.Errorf("records while reads fail: got %v, want ErrIO and not ErrCorrupt", err)
	}
	if _, err := st.Append(ctx, "s", recs[3]); !errors.Is(err, store.ErrIO) {
		t.Errorf("append while reads fail: got %v, want ErrIO", err)
	}
	fsys.failing.Store(false)
	if _, err := st.Append(ctx, "s", recs[3]); err != nil {
		t.Fatalf("append once reads work: %v", err)
	}
	got, err := st.Records(ctx, "s")
	if err != nil {
		t.Fatal(err)
	}
	if d := cmp.Diff(recs, got); d != "" {
		t.Errorf("records mismatch (-want +got):\n%s", d)
	}
	if err := writer.Close(); err != nil {
		t.Fatal(err)
	}
}
