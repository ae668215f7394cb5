package store_test

import (
	"errors"
	"sync/atomic"
	"syscall"
	"testing"

	"github.com/batonrt/baton/contract"
	"github.com/batonrt/baton/store"
	"github.com/batonrt/baton/store/storetest"
	"github.com/batonrt/baton/store/vfs"
	"github.com/google/go-cmp/cmp"
)

// syncHookFS runs a hook inside the next file sync, once armed, and then
// fails that sync with EIO, as a disk that could not write the commit.
type syncHookFS struct {
	vfs.FS
	hook atomic.Pointer[func()]
}

type syncHookFile struct {
	vfs.File
	fs *syncHookFS
}

func (s *syncHookFS) OpenAppend(name string) (vfs.File, error) {
	f, err := s.FS.OpenAppend(name)
	if err != nil {
		return nil, err
	}
	return syncHookFile{f, s}, nil
}

func (f syncHookFile) Sync() error {
	if h := f.fs.hook.Swap(nil); h != nil {
		(*h)()
		return &errorString{syscall.EIO}
	}
	return f.File.Sync()
}

type errorString struct{ errno syscall.Errno }

func (e *errorString) Error() string { return "sync: " + e.errno.Error() }
func (e *errorString) Unwrap() error { return e.errno }

// A commit whose sync fails is cut off the log again. Another process
// that read the session while the commit's frame sat in the log must not
// then refuse the session for good as damaged ("log shrank"): the session
// is whole, and its writer goes on appending to it.
func TestReaderOfAFailedCommitKeepsReadingTheSession(t *testing.T) {
	ctx := t.Context()
	mem := vfs.NewMem()
	hooked := &syncHookFS{FS: mem}
	writer, reader := must(store.OpenFS(hooked)), must(store.OpenFS(mem))
	defer writer.Close()
	defer reader.Close()
	recs := storetest.Script("r", 3)
	release := must(writer.Lock(ctx, "s"))
	defer release()
	if _, err := writer.Append(ctx, "s", recs[0]); err != nil {
		t.Fatal(err)
	}
	if _, err := reader.Records(ctx, "s"); err != nil {
		t.Fatal(err)
	}
	// The reader looks while the failing commit's frame is written.
	read := func() { _, _ = reader.Head(ctx, "s") }
	hooked.hook.Store(&read)
	if _, err := writer.Append(ctx, "s", recs[1]); !errors.Is(err, store.ErrIO) {
		t.Fatalf("append whose sync fails: got %v, want ErrIO", err)
	}
	if _, err := writer.Append(ctx, "s", recs[1:]...); err != nil {
		t.Fatal(err)
	}
	got, err := reader.Records(ctx, "s")
	if err != nil {
		t.Fatalf("reader after the writer's failed commit: %v", err)
	}
	if d := cmp.Diff(recs, got); d != "" {
		t.Fatalf("records mismatch (-want +got):\n%s", d)
	}
}

// What the writer appends after cutting off its failed commit may leave
// the log shorter than the reader last saw it, or just as long with
// another frame in the failed one's place: the reader finds what the log
// holds now either way.
func TestReaderOfAFailedCommitSeesWhatReplacedIt(t *testing.T) {
	recs, other := storetest.Script("r", 2), storetest.Script("q", 2)
	for _, tc := range []struct {
		name string
		then []contract.Record
	}{
		{"nothing", nil},
		{"a frame as long", other[1:]}, // only the run's id differs
	} {
		t.Run(tc.name, func(t *testing.T) {
			ctx := t.Context()
			mem := vfs.NewMem()
			hooked := &syncHookFS{FS: mem}
			writer, reader := must(store.OpenFS(hooked)), must(store.OpenFS(mem))
			defer writer.Close()
			defer reader.Close()
			release := must(writer.Lock(ctx, "s"))
			defer release()
			if _, err := writer.Append(ctx, "s", recs[0]); err != nil {
				t.Fatal(err)
			}
			if _, err := reader.Records(ctx, "s"); err != nil {
				t.Fatal(err)
			}
			var seen int64
			read := func() {
				_, _ = reader.Head(ctx, "s")
				seen = must(mem.Size("logs/s.log"))
			}
			hooked.hook.Store(&read)
			if _, err := writer.Append(ctx, "s", recs[1]); !errors.Is(err, store.ErrIO) {
				t.Fatalf("append whose sync fails: got %v, want ErrIO", err)
			}
			if len(tc.then) > 0 {
				if _, err := writer.Append(ctx, "s", tc.then...); err != nil {
					t.Fatal(err)
				}
				if size := must(mem.Size("logs/s.log")); size != seen {
					t.Fatalf("log is %d bytes, the reader saw %d: not the case under test", size, seen)
				}
			}
			got, err := reader.Records(ctx, "s")
			if err != nil {
				t.Fatalf("reader after the writer's failed commit: %v", err)
			}
			if d := cmp.Diff(append(recs[:1:1], tc.then...), got); d != "" {
				t.Fatalf("records mismatch (-want +got):\n%s", d)
			}
		})
	}
}
