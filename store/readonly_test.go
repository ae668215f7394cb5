package store_test

import (
	"errors"
	"io"
	"io/fs"
	"os"
	"path/filepath"
	"syscall"
	"testing"

	"github.com/batonrt/baton/store"
	"github.com/batonrt/baton/store/storetest"
	"github.com/batonrt/baton/store/vfs"
	"github.com/google/go-cmp/cmp"
)

// readOnlyFS refuses every change, as a folder the user may only read
// does (or a read-only mount, with EROFS).
type readOnlyFS struct {
	vfs.FS
	errno syscall.Errno
}

func (r readOnlyFS) deny(op, name string) error {
	return &fs.PathError{Op: op, Path: name, Err: r.errno}
}

func (r readOnlyFS) Create(name string) (vfs.File, error) { return nil, r.deny("open", name) }
func (r readOnlyFS) OpenAppend(name string) (vfs.File, error) {
	return nil, r.deny("open", name)
}
func (r readOnlyFS) Truncate(name string, _ int64) error { return r.deny("truncate", name) }
func (r readOnlyFS) Rename(name, _ string) error         { return r.deny("rename", name) }
func (r readOnlyFS) Remove(name string) error            { return r.deny("remove", name) }
func (r readOnlyFS) Lock(name string) (io.Closer, error) { return nil, r.deny("open", name) }

func (r readOnlyFS) MkdirAll(name string) error {
	if ok, err := r.Exists(name); ok || err != nil {
		return err
	}
	return r.deny("mkdir", name)
}

// A store the user may only read opens and reads, even with a torn tail
// and a crashed writer's temporary file in it, which only a writer may
// clean up; what it cannot do is append.
func TestReadOnlyFolderOpensForReading(t *testing.T) {
	ctx := t.Context()
	for _, errno := range []syscall.Errno{syscall.EACCES, syscall.EROFS} {
		t.Run(errno.Error(), func(t *testing.T) {
			mem := vfs.NewMem()
			sizes := appendScript(t, mem, 3)
			b := must(mem.ReadFile("logs/s.log"))
			torn := append(b, b[sizes[0]:sizes[0]+10]...)
			writeRaw(t, mem, "logs/s.log", torn)
			writeRaw(t, mem, ".tmp-99999-1", []byte("partial"))
			st, err := store.OpenFS(readOnlyFS{mem, errno})
			if err != nil {
				t.Fatalf("open: %v", err)
			}
			if d := cmp.Diff(storetest.Script("r", 3), must(st.Records(ctx, "s"))); d != "" {
				t.Errorf("records mismatch (-want +got):\n%s", d)
			}
			if _, err := st.Append(ctx, "s", storetest.Script("r", 4)[3]); !errors.Is(err, store.ErrIO) || !errors.Is(err, errno) {
				t.Errorf("append: got %v, want ErrIO with %v", err, errno)
			}
			if got := must(mem.ReadFile("logs/s.log")); string(got) != string(torn) {
				t.Error("the log was changed")
			}
		})
	}
}

// A folder of format 1 the user may only read opens and reads as it was
// written; upgrading it (the logs folder, the format file) is left to a
// writer, and nothing in it changes.
func TestReadOnlyLooseFolderOpensForReading(t *testing.T) {
	for _, errno := range []syscall.Errno{syscall.EACCES, syscall.EROFS} {
		t.Run(errno.Error(), func(t *testing.T) {
			dir := copyDir(t, "testdata/loose-v1")
			before := listTree(t, dir)
			st, err := store.OpenFS(readOnlyFS{vfs.OS(dir), errno})
			if err != nil {
				t.Fatalf("open: %v", err)
			}
			want := store.NewMemory()
			looseFixture(t, want)
			if d := cmp.Diff(dump(t, want), dump(t, st)); d != "" {
				t.Errorf("fixture mismatch (-want +got):\n%s", d)
			}
			if err := st.Verify(t.Context()); err != nil {
				t.Error(err)
			}
			if _, err := st.Append(t.Context(), "main", storetest.Script("r1", 9)[8]); !errors.Is(err, store.ErrIO) || !errors.Is(err, errno) {
				t.Errorf("append: got %v, want ErrIO with %v", err, errno)
			}
			if d := cmp.Diff(before, listTree(t, dir)); d != "" {
				t.Errorf("the folder changed (-before +after):\n%s", d)
			}
		})
	}
}

// listTree returns every file and folder under dir with its contents.
func listTree(t *testing.T, dir string) map[string]string {
	t.Helper()
	out := map[string]string{}
	err := filepath.WalkDir(dir, func(p string, d fs.DirEntry, err error) error {
		if err != nil || d.IsDir() {
			out[p] = "folder"
			return err
		}
		b, err := os.ReadFile(p)
		out[p] = string(b)
		return err
	})
	if err != nil {
		t.Fatal(err)
	}
	return out
}
