package store_test

import (
	"sync/atomic"
	"testing"

	"github.com/batonrt/baton/store"
	"github.com/batonrt/baton/store/storetest"
	"github.com/batonrt/baton/store/vfs"
)

// countingFS counts the files open for writing.
type countingFS struct {
	vfs.FS
	open atomic.Int64
}

type countedFile struct {
	vfs.File
	fs     *countingFS
	closed bool
}

func (c *countingFS) wrap(f vfs.File, err error) (vfs.File, error) {
	if err != nil {
		return nil, err
	}
	c.open.Add(1)
	return &countedFile{File: f, fs: c}, nil
}

func (c *countingFS) Create(name string) (vfs.File, error)     { return c.wrap(c.FS.Create(name)) }
func (c *countingFS) OpenAppend(name string) (vfs.File, error) { return c.wrap(c.FS.OpenAppend(name)) }

func (f *countedFile) Close() error {
	if !f.closed {
		f.closed = true
		f.fs.open.Add(-1)
	}
	return f.File.Close()
}

// A session appended to without holding its lock is let go when the
// append returns, as a session whose lock is released is: a process that
// appends to (or imports, or forks) many sessions must not keep a file
// open for each of them until the store closes, which runs it out of
// file descriptors.
func TestUnlockedAppendKeepsNoFileOpen(t *testing.T) {
	ctx := t.Context()
	fsys := &countingFS{FS: vfs.NewMem()}
	st, err := store.OpenFS(fsys)
	if err != nil {
		t.Fatal(err)
	}
	defer st.Close()
	// Locked: the handle goes with the lock.
	release, err := st.Lock(ctx, "locked")
	if err != nil {
		t.Fatal(err)
	}
	if _, err := st.Append(ctx, "locked", storetest.Script("r", 2)...); err != nil {
		t.Fatal(err)
	}
	if err := release(); err != nil {
		t.Fatal(err)
	}
	if n := fsys.open.Load(); n != 0 {
		t.Fatalf("%d files open after the lock was released", n)
	}
	// Unlocked: each append holds the lock only for its commit.
	for _, id := range []string{"a", "b", "c"} {
		if _, err := st.Append(ctx, id, storetest.Script("r", 2)...); err != nil {
			t.Fatal(err)
		}
	}
	if n := fsys.open.Load(); n != 0 {
		t.Errorf("%d files open after appends to 3 sessions no one holds, want 0", n)
	}
}
