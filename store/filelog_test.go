package store_test

import (
	"errors"
	"io/fs"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/batonrt/baton/contract"
	"github.com/batonrt/baton/store"
	"github.com/batonrt/baton/store/storetest"
	"github.com/batonrt/baton/store/vfs"
	"github.com/google/go-cmp/cmp"
)

// looseFixture replays, on st, what wrote testdata/loose-v1 with the
// loose-object layout (format 1).
func looseFixture(t *testing.T, st store.Store) {
	t.Helper()
	ctx := t.Context()
	child, err := st.Append(ctx, "child", storetest.Script("sub", 3)...)
	if err != nil {
		t.Fatal(err)
	}
	recs := storetest.Script("r1", 8)
	if _, err := st.Append(ctx, "main", recs[:4]...); err != nil {
		t.Fatal(err)
	}
	h, err := st.AppendLinked(ctx, "main", recs[4], child)
	if err != nil {
		t.Fatal(err)
	}
	snap := contract.RunSnapshot{SessionID: "main", Phase: contract.PhaseAwaitingModel, History: contract.HistoryOf(contract.UserText("hi")), Steps: 5}
	if err := st.SaveCheckpoint(ctx, "main", h, snap); err != nil {
		t.Fatal(err)
	}
	if _, err := st.Append(ctx, "main", recs[5:]...); err != nil {
		t.Fatal(err)
	}
	if err := st.Fork(ctx, "fork/é 1", h); err != nil {
		t.Fatal(err)
	}
}

func copyDir(t *testing.T, src string) string {
	t.Helper()
	dst := t.TempDir()
	err := filepath.WalkDir(src, func(p string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		rel, _ := filepath.Rel(src, p)
		if d.IsDir() {
			return os.MkdirAll(filepath.Join(dst, rel), 0o755)
		}
		b, err := os.ReadFile(p)
		if err != nil {
			return err
		}
		return os.WriteFile(filepath.Join(dst, rel), b, 0o644)
	})
	if err != nil {
		t.Fatal(err)
	}
	return dst
}

type sessionDump struct {
	Head       store.Hash
	Records    []contract.Record
	Checkpoint *store.Checkpoint
}

func dump(t *testing.T, st store.Store) map[string]sessionDump {
	t.Helper()
	ctx := t.Context()
	ids, err := st.Sessions(ctx)
	if err != nil {
		t.Fatal(err)
	}
	out := map[string]sessionDump{}
	for _, id := range ids {
		var d sessionDump
		if d.Head, err = st.Head(ctx, id); err != nil {
			t.Fatal(err)
		}
		if d.Records, err = st.Records(ctx, id); err != nil {
			t.Fatal(err)
		}
		if cp, err := st.Checkpoint(ctx, id); err == nil {
			d.Checkpoint = &cp
		} else if !errors.Is(err, store.ErrNotFound) {
			t.Fatal(err)
		}
		out[id] = d
	}
	return out
}

// A folder written by the loose-object layout opens, reads as it was
// written, verifies, takes new appends into logs, and reads the same after
// a reopen; the format file then says 2, so an older release refuses it
// rather than missing the logs.
func TestLooseFolderStillOpens(t *testing.T) {
	ctx := t.Context()
	dir := copyDir(t, "testdata/loose-v1")
	st, err := store.Open(dir)
	if err != nil {
		t.Fatal(err)
	}
	want := store.NewMemory()
	looseFixture(t, want)
	if d := cmp.Diff(dump(t, want), dump(t, st)); d != "" {
		t.Fatalf("fixture mismatch (-want +got):\n%s", d)
	}
	if err := st.Verify(ctx); err != nil {
		t.Fatal(err)
	}
	more := storetest.Script("r1", 10)[8:]
	for _, s := range []store.Store{want, st} {
		if _, err := s.Append(ctx, "main", more...); err != nil {
			t.Fatal(err)
		}
		if err := s.Fork(ctx, "new", must(s.Head(ctx, "child"))); err != nil {
			t.Fatal(err)
		}
	}
	if err := st.Close(); err != nil {
		t.Fatal(err)
	}
	again, err := store.Open(dir)
	if err != nil {
		t.Fatal(err)
	}
	if d := cmp.Diff(dump(t, want), dump(t, again)); d != "" {
		t.Fatalf("after appends and a reopen (-want +got):\n%s", d)
	}
	if err := again.Verify(ctx); err != nil {
		t.Fatal(err)
	}
	if b, _ := os.ReadFile(filepath.Join(dir, "format")); string(b) != "baton-store 2\n" {
		t.Fatalf("format file says %q", b)
	}
}

func must[T any](v T, err error) T {
	if err != nil {
		panic(err)
	}
	return v
}

// A session of 1,000 records is one log file and one lock file, beside
// the folder's format file and the lock its openers take.
func TestLogFilesPerSession(t *testing.T) {
	ctx := t.Context()
	dir := t.TempDir()
	st, err := store.Open(dir)
	if err != nil {
		t.Fatal(err)
	}
	defer st.Close()
	recs := storetest.Script("r", 1000)
	for i := 0; i < len(recs); i += 7 {
		if _, err := st.Append(ctx, "s", recs[i:min(i+7, len(recs))]...); err != nil {
			t.Fatal(err)
		}
	}
	var files []string
	_ = filepath.WalkDir(dir, func(p string, d fs.DirEntry, err error) error {
		if err == nil && !d.IsDir() {
			rel, _ := filepath.Rel(dir, p)
			files = append(files, filepath.ToSlash(rel))
		}
		return err
	})
	if d := cmp.Diff([]string{"format", "locks/.open", "locks/s", "logs/s.log"}, files); d != "" {
		t.Fatalf("files mismatch (-want +got):\n%s", d)
	}
}

// appendScript makes a store on fs with session s of n records appended
// one by one, and returns the log's size after each append.
func appendScript(t *testing.T, fsys vfs.FS, n int) []int64 {
	t.Helper()
	st, err := store.OpenFS(fsys)
	if err != nil {
		t.Fatal(err)
	}
	defer st.Close()
	var sizes []int64
	for _, r := range storetest.Script("r", n) {
		if _, err := st.Append(t.Context(), "s", r); err != nil {
			t.Fatal(err)
		}
		sizes = append(sizes, must(fsys.Size("logs/s.log")))
	}
	return sizes
}

// Whatever an interrupted write left after the last whole frame is cut
// when the store opens, and appends continue from there.
func TestTornTailCutOnOpen(t *testing.T) {
	ctx := t.Context()
	for _, tail := range []string{"half", "zeros", "garbled last frame"} {
		t.Run(tail, func(t *testing.T) {
			mem := vfs.NewMem()
			sizes := appendScript(t, mem, 4)
			b := must(mem.ReadFile("logs/s.log"))
			switch tail {
			case "half":
				// A fifth frame cut in the middle, as a torn write leaves it.
				writeRaw(t, mem, "logs/s.log", append(b, b[sizes[2]:sizes[2]+(sizes[3]-sizes[2])/2]...))
			case "zeros":
				writeRaw(t, mem, "logs/s.log", append(b, make([]byte, 300)...))
			case "garbled last frame":
				b[len(b)-20] ^= 0xff
				writeRaw(t, mem, "logs/s.log", b)
				sizes = sizes[:3]
			}
			st, err := store.OpenFS(mem)
			if err != nil {
				t.Fatal(err)
			}
			if got := must(mem.Size("logs/s.log")); got != sizes[len(sizes)-1] {
				t.Fatalf("log is %d bytes after open, want %d", got, sizes[len(sizes)-1])
			}
			recs := storetest.Script("r", 6)
			if got := must(st.Records(ctx, "s")); len(got) != len(sizes) {
				t.Fatalf("%d records after the cut, want %d", len(got), len(sizes))
			}
			if _, err := st.Append(ctx, "s", recs[len(sizes):]...); err != nil {
				t.Fatal(err)
			}
			again := must(store.OpenFS(mem))
			if d := cmp.Diff(recs, must(again.Records(ctx, "s"))); d != "" {
				t.Fatalf("records mismatch (-want +got):\n%s", d)
			}
			if err := again.Verify(ctx); err != nil {
				t.Fatal(err)
			}
		})
	}
}

// Damage inside a log, with whole frames after it, is not a torn tail:
// reads, Verify and appends report ErrCorrupt and nothing is cut.
func TestLogDamageRefused(t *testing.T) {
	ctx := t.Context()
	mem := vfs.NewMem()
	sizes := appendScript(t, mem, 4)
	b := must(mem.ReadFile("logs/s.log"))
	b[sizes[0]+20] ^= 0x01
	writeRaw(t, mem, "logs/s.log", b)
	st, err := store.OpenFS(mem)
	if err != nil {
		t.Fatal(err)
	}
	if _, err := st.Records(ctx, "s"); !errors.Is(err, store.ErrCorrupt) {
		t.Errorf("Records: got %v, want ErrCorrupt", err)
	}
	if err := st.Verify(ctx); !errors.Is(err, store.ErrCorrupt) {
		t.Errorf("Verify: got %v, want ErrCorrupt", err)
	}
	if _, err := st.Append(ctx, "s", storetest.Script("r", 5)[4]); !errors.Is(err, store.ErrCorrupt) {
		t.Errorf("Append: got %v, want ErrCorrupt", err)
	}
	if got := must(mem.ReadFile("logs/s.log")); string(got) != string(b) {
		t.Error("the damaged log was changed")
	}
}

// Temporary files that interrupted writes left are removed on open, in
// both layouts.
func TestLitterCleanedOnOpen(t *testing.T) {
	mem := vfs.NewMem()
	writeLoose(t, mem, storetest.Script("r", 2))
	litter := []string{".tmp-99999-1", "refs/heads/.tmp-99999-2", "objects/ab/.tmp-99999-3"}
	for _, n := range litter {
		writeRaw(t, mem, n, []byte("partial"))
	}
	if _, err := store.OpenFS(mem); err != nil {
		t.Fatal(err)
	}
	for _, n := range litter {
		if ok, _ := mem.Exists(n); ok {
			t.Errorf("%s left after open", n)
		}
	}
}

// A writer that does not hold the session's lock cannot append while
// another store (here in the same process, as another process would)
// holds it.
func TestAppendRefusedWhileLockedElsewhere(t *testing.T) {
	ctx := t.Context()
	dir := t.TempDir()
	owner, other := must(store.Open(dir)), must(store.Open(dir))
	defer owner.Close()
	defer other.Close()
	recs := storetest.Script("r", 3)
	release := must(owner.Lock(ctx, "s"))
	if _, err := owner.Append(ctx, "s", recs[0]); err != nil {
		t.Fatal(err)
	}
	_, err := other.Append(ctx, "s", recs[1])
	if !errors.Is(err, store.ErrLocked) {
		t.Fatalf("append by a non-owner: got %v, want ErrLocked", err)
	}
	if _, err := owner.Append(ctx, "s", recs[1]); err != nil {
		t.Fatal(err)
	}
	if err := release(); err != nil {
		t.Fatal(err)
	}
	if _, err := other.Append(ctx, "s", recs[2]); err != nil {
		t.Fatalf("append after the owner let go: %v", err)
	}
	if got := must(owner.Records(ctx, "s")); len(got) != 3 || !strings.HasPrefix(got[2].Effects, "step 3") {
		t.Fatalf("owner reads %d records", len(got))
	}
}

// A store that read a session before another writer died mid-append cuts
// that writer's torn tail when it takes the lock, rather than appending
// after it.
func TestTornTailOfAnotherWriterCutOnLock(t *testing.T) {
	ctx := t.Context()
	mem := vfs.NewMem()
	sizes := appendScript(t, mem, 3)
	st := must(store.OpenFS(mem))
	if got := must(st.Records(ctx, "s")); len(got) != 3 {
		t.Fatalf("%d records", len(got))
	}
	b := must(mem.ReadFile("logs/s.log"))
	writeRaw(t, mem, "logs/s.log", append(b, b[sizes[0]:sizes[0]+(sizes[1]-sizes[0])/2]...))
	release := must(st.Lock(ctx, "s"))
	recs := storetest.Script("r", 4)
	if _, err := st.Append(ctx, "s", recs[3]); err != nil {
		t.Fatal(err)
	}
	if err := release(); err != nil {
		t.Fatal(err)
	}
	again := must(store.OpenFS(mem))
	if d := cmp.Diff(recs, must(again.Records(ctx, "s"))); d != "" {
		t.Fatalf("records mismatch (-want +got):\n%s", d)
	}
	if err := again.Verify(ctx); err != nil {
		t.Fatal(err)
	}
}

// A commit that failed to write leaves its session's log to whoever
// takes the lock next: a store that later takes the lock again must not
// cut the log back to where its failed commit started, over the commits
// another writer made meanwhile.
func TestFailedCommitNotCutOverAnotherWriter(t *testing.T) {
	ctx := t.Context()
	mem := vfs.NewMem()
	faulty := vfs.NewFaulty(mem)
	a, b := must(store.OpenFS(faulty)), must(store.OpenFS(mem))
	defer a.Close()
	defer b.Close()
	recs := storetest.Script("r", 3)
	release := must(a.Lock(ctx, "s"))
	if _, err := a.Append(ctx, "s", recs[0]); err != nil {
		t.Fatal(err)
	}
	faulty.Inject(1, false)
	if _, err := a.Append(ctx, "s", recs[1]); !errors.Is(err, store.ErrIO) {
		t.Fatalf("append on a full disk: got %v, want ErrIO", err)
	}
	if err := release(); err != nil {
		t.Fatal(err)
	}
	if _, err := b.Append(ctx, "s", recs[1:]...); err != nil {
		t.Fatal(err)
	}
	release = must(a.Lock(ctx, "s"))
	if err := release(); err != nil {
		t.Fatal(err)
	}
	again := must(store.OpenFS(mem))
	if d := cmp.Diff(recs, must(again.Records(ctx, "s"))); d != "" {
		t.Fatalf("records mismatch (-want +got):\n%s", d)
	}
}

// Closing a store releases the session locks it still holds, so the
// folder opened again can lock them.
func TestCloseReleasesLocks(t *testing.T) {
	ctx := t.Context()
	dir := t.TempDir()
	st := must(store.Open(dir))
	release := must(st.Lock(ctx, "s"))
	if _, err := st.Append(ctx, "s", storetest.Script("r", 1)...); err != nil {
		t.Fatal(err)
	}
	if err := st.Close(); err != nil {
		t.Fatal(err)
	}
	again := must(store.Open(dir))
	defer again.Close()
	if _, err := again.Lock(ctx, "s"); err != nil {
		t.Fatalf("lock after the holder's store closed: %v", err)
	}
	// The first holder's release, late, leaves the new holder's lock be.
	if err := release(); err != nil {
		t.Fatal(err)
	}
	third := must(store.Open(dir))
	defer third.Close()
	if _, err := third.Lock(ctx, "s"); !errors.Is(err, store.ErrLocked) {
		t.Fatalf("lock while the reopened store holds it: got %v, want ErrLocked", err)
	}
}
