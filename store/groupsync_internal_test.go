package store

import (
	"errors"
	"fmt"
	"runtime"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/batonrt/baton/store/vfs"
)

// flushFS is a file system whose files are durable up to what was
// written when their last Sync began, or when a Flush began.
type flushFS struct {
	vfs.FS
	mu      sync.Mutex
	files   []*flushFile
	flushes atomic.Int64
	syncs   atomic.Int64
	fail    atomic.Bool // Flush fails
	unable  atomic.Bool // Flush is unsupported
}

type flushFile struct {
	fs      *flushFS
	written atomic.Int64
	durable atomic.Int64
	failing bool // Sync fails
}

func (f *flushFS) newFile(failing bool) *flushFile {
	file := &flushFile{fs: f, failing: failing}
	f.mu.Lock()
	f.files = append(f.files, file)
	f.mu.Unlock()
	return file
}

// diskWait stands for the disk's flush, so that commits overlap as they
// do on a disk.
const diskWait = 100 * time.Microsecond

func (f *flushFS) Flush() error {
	f.flushes.Add(1)
	if f.unable.Load() {
		return errors.ErrUnsupported
	}
	if f.fail.Load() {
		time.Sleep(diskWait)
		return errors.New("flush failed")
	}
	// What was written when the flush began is what it makes durable.
	f.mu.Lock()
	files := append([]*flushFile(nil), f.files...)
	f.mu.Unlock()
	upTo := make([]int64, len(files))
	for i, file := range files {
		upTo[i] = file.written.Load()
	}
	time.Sleep(diskWait)
	for i, file := range files {
		file.durable.Store(max(file.durable.Load(), upTo[i]))
	}
	return nil
}

func (f *flushFile) Write(p []byte) (int, error) {
	f.written.Add(int64(len(p)))
	return len(p), nil
}

func (f *flushFile) Sync() error {
	f.fs.syncs.Add(1)
	upTo := f.written.Load()
	time.Sleep(diskWait)
	if f.failing {
		return errors.New("sync failed")
	}
	f.durable.Store(max(f.durable.Load(), upTo))
	return nil
}

func (f *flushFile) Close() error { return nil }

// Whatever a writer wrote before it asked for a sync is durable when the
// sync returns, however the writers' syncs were grouped; writers that
// arrive while a flush is under way share the next one.
func TestGroupSyncMakesEveryWriteDurable(t *testing.T) {
	for _, failFlush := range []bool{false, true} {
		t.Run(fmt.Sprintf("flush_fails=%v", failFlush), func(t *testing.T) {
			fs := &flushFS{}
			fs.fail.Store(failFlush)
			g := newGroupSync(fs)
			const writers, rounds = 40, 50
			writeConcurrently(t, fs, g, writers, rounds)
			all := int64(writers * rounds)
			if failFlush {
				if got := fs.syncs.Load(); got != all {
					t.Errorf("%d file syncs after failed flushes, want one per commit (%d)", got, all)
				}
				return
			}
			if fs.flushes.Load() == 0 {
				t.Errorf("no flush in %d commits from %d writers at once: nothing was grouped", all, writers)
			}
			if got := fs.flushes.Load() + fs.syncs.Load(); got >= all {
				t.Errorf("%d flushes and syncs for %d commits: nothing was grouped", got, all)
			}
		})
	}
}

// When the flush fails, each commit learns its own file's fate: the one
// whose sync fails gets the error, the others do not.
func TestGroupSyncFailedFlushNamesTheFile(t *testing.T) {
	fs := &flushFS{}
	fs.fail.Store(true)
	g := newGroupSync(fs)
	// Hold a round open behind a running sync, so both files share it.
	g.running = true
	good, bad := fs.newFile(false), fs.newFile(true)
	var goodErr, badErr error
	var wg sync.WaitGroup
	wg.Go(func() { goodErr = g.sync(good) })
	waitRound(t, g, 1)
	wg.Go(func() { badErr = g.sync(bad) })
	waitRound(t, g, 2)
	g.finish()
	wg.Wait()
	if goodErr != nil {
		t.Errorf("the good file's commit failed: %v", goodErr)
	}
	if badErr == nil {
		t.Error("the failing file's commit succeeded")
	}
	if fs.flushes.Load() != 1 {
		t.Errorf("%d flushes, want the round's one", fs.flushes.Load())
	}
}

// waitRound waits until the open round holds n files.
func waitRound(t *testing.T, g *groupSync, n int) {
	t.Helper()
	for range 10000 {
		g.mu.Lock()
		ok := g.open != nil && len(g.open.files) == n
		g.mu.Unlock()
		if ok {
			return
		}
		runtime.Gosched()
	}
	t.Fatalf("the open round never held %d files", n)
}

// A file system that turns out unable to flush stops the grouping: the
// commits after go straight to their own file's sync, and every write is
// still durable when its sync returns.
func TestGroupSyncStopsWhenFlushIsUnsupported(t *testing.T) {
	fs := &flushFS{}
	fs.unable.Store(true)
	g := newGroupSync(fs)
	writeConcurrently(t, fs, g, 20, 20)
	if !g.off.Load() {
		t.Fatal("grouping still on after the file system said it cannot flush")
	}
	if n := fs.flushes.Load(); n > 1 {
		t.Errorf("%d flushes asked of a file system that cannot flush, want at most the first", n)
	}
}

// writeConcurrently has writers goroutines each write and sync a file of
// fs through g rounds times, and fails t when a sync errs or returns
// before what its writer wrote is durable.
func writeConcurrently(t *testing.T, fs *flushFS, g *groupSync, writers, rounds int) {
	t.Helper()
	var wg sync.WaitGroup
	errs := make(chan error, writers)
	for range writers {
		file := fs.newFile(false)
		wg.Go(func() {
			for range rounds {
				_, _ = file.Write([]byte("frame"))
				want := file.written.Load()
				if err := g.sync(file); err != nil {
					errs <- err
					return
				}
				if got := file.durable.Load(); got < want {
					errs <- fmt.Errorf("sync returned with %d bytes durable of %d written", got, want)
					return
				}
			}
		})
	}
	wg.Wait()
	close(errs)
	for err := range errs {
		t.Error(err)
	}
}
