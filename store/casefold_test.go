package store_test

import (
	"errors"
	"io"
	"path"
	"strings"
	"testing"

	"github.com/batonrt/baton/contract"
	"github.com/batonrt/baton/store"
	"github.com/batonrt/baton/store/storetest"
	"github.com/batonrt/baton/store/vfs"
	"github.com/google/go-cmp/cmp"
)

// foldFS plays a file system that ignores case but keeps it, as macOS's
// and Windows' do by default: a name finds the file whose name differs
// from it only in case, and a new file keeps the case it was made with.
type foldFS struct{ vfs.FS }

func (f foldFS) fold(name string) string {
	dir, base := path.Split(name)
	names, err := f.FS.ReadDir(path.Clean(dir))
	if err != nil {
		return name
	}
	for _, n := range names {
		if strings.EqualFold(n, base) {
			return dir + n
		}
	}
	return name
}

func (f foldFS) Create(name string) (vfs.File, error)     { return f.FS.Create(f.fold(name)) }
func (f foldFS) OpenAppend(name string) (vfs.File, error) { return f.FS.OpenAppend(f.fold(name)) }
func (f foldFS) Truncate(name string, size int64) error   { return f.FS.Truncate(f.fold(name), size) }
func (f foldFS) ReadFile(name string) ([]byte, error)     { return f.FS.ReadFile(f.fold(name)) }
func (f foldFS) Size(name string) (int64, error)          { return f.FS.Size(f.fold(name)) }
func (f foldFS) Exists(name string) (bool, error)         { return f.FS.Exists(f.fold(name)) }
func (f foldFS) Remove(name string) error                 { return f.FS.Remove(f.fold(name)) }
func (f foldFS) Lock(name string) (io.Closer, error)      { return f.FS.Lock(strings.ToLower(name)) }

func (f foldFS) ReadAt(name string, p []byte, off int64) (int, error) {
	return f.FS.ReadAt(f.fold(name), p, off)
}

func (f foldFS) Rename(oldname, newname string) error {
	return f.FS.Rename(f.fold(oldname), f.fold(newname))
}

// mountFoldFS plays a store whose root is on a case-sensitive file
// system and whose logs and locks folders are on one that ignores case
// (a symlink or mount onto a volume of macOS, Windows or a casefold
// ext4 folder): only names inside those folders fold.
type mountFoldFS struct{ foldFS }

func (m mountFoldFS) Exists(name string) (bool, error) {
	if !strings.Contains(name, "/") {
		return m.FS.Exists(name)
	}
	return m.foldFS.Exists(name)
}

// Sessions whose ids differ only in case have logs whose names a file
// system that ignores case takes for one file. The second is refused,
// and neither session reads the other's records, in this store or in
// one opened after, whether the whole folder ignores case or only the
// folder the logs are in.
func TestSessionIDsDifferingInCaseNotMerged(t *testing.T) {
	for name, fsys := range map[string]vfs.FS{
		"whole folder folds": foldFS{vfs.NewMem()},
		"logs folder folds":  mountFoldFS{foldFS{vfs.NewMem()}},
	} {
		t.Run(name, func(t *testing.T) { checkCaseNotMerged(t, fsys) })
	}
}

func checkCaseNotMerged(t *testing.T, fsys vfs.FS) {
	ctx := t.Context()
	st, err := store.OpenFS(fsys)
	if err != nil {
		t.Fatal(err)
	}
	upper := storetest.Script("u", 3)
	if _, err := st.Append(ctx, "Run", upper...); err != nil {
		t.Fatal(err)
	}
	reopened, err := store.OpenFS(fsys)
	if err != nil {
		t.Fatal(err)
	}
	for name, s := range map[string]store.Store{"same store": st, "reopened": reopened} {
		t.Run(name, func(t *testing.T) {
			if recs, err := s.Records(ctx, "run"); err == nil {
				t.Errorf("session run reads %d records of session Run", len(recs))
			}
			// Step 4 follows Run's records: appended to Run's log, it
			// would read as Run's fourth record.
			if _, err := s.Append(ctx, "run", storetest.Script("l", 4)[3]); !errors.Is(err, store.ErrInvalid) {
				t.Errorf("append to run: got %v, want ErrInvalid", err)
			}
			if d := cmp.Diff(upper, must(s.Records(ctx, "Run"))); d != "" {
				t.Errorf("Run's records mismatch (-want +got):\n%s", d)
			}
			if d := cmp.Diff([]string{"Run"}, must(s.Sessions(ctx))); d != "" {
				t.Errorf("sessions mismatch (-want +got):\n%s", d)
			}
		})
	}
}

// On a file system that keeps case apart, sessions whose ids differ
// only in case are two sessions, each with its own records, whichever
// of them a store opened after reads first.
func TestSessionIDsDifferingInCaseKeptApart(t *testing.T) {
	ctx := t.Context()
	mem := vfs.NewMem()
	st := must(store.OpenFS(mem))
	want := map[string][]contract.Record{"Run": storetest.Script("u", 3), "rUN": storetest.Script("l", 2)}
	for _, id := range []string{"Run", "rUN"} {
		if _, err := st.Append(ctx, id, want[id]...); err != nil {
			t.Fatal(err)
		}
	}
	reopened := must(store.OpenFS(mem))
	// A log made after the reopened store listed the logs is checked
	// by name when first read.
	want["run"] = storetest.Script("m", 1)
	if _, err := st.Append(ctx, "run", want["run"]...); err != nil {
		t.Fatal(err)
	}
	for _, s := range []store.Store{st, reopened} {
		got := map[string][]contract.Record{}
		for _, id := range []string{"run", "rUN", "Run"} {
			got[id] = must(s.Records(ctx, id))
		}
		if d := cmp.Diff(want, got); d != "" {
			t.Errorf("records mismatch (-want +got):\n%s", d)
		}
	}
}
