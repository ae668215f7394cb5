package store_test

import (
	"context"
	"fmt"
	"os"
	"path/filepath"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/batonrt/baton/contract"
	"github.com/batonrt/baton/store"
	"github.com/batonrt/baton/store/storetest"
	"github.com/batonrt/baton/store/vfs"
)

// BenchmarkAppend appends records to a session on a real folder, one
// durable append per record (sync=each) or 64 records per append
// (sync=batch); ns/op is per record either way. floor is the disk's: a
// 400-byte append and an fdatasync on a file of the same folder.
func BenchmarkAppend(b *testing.B) {
	b.Run("floor", func(b *testing.B) {
		f, err := os.OpenFile(filepath.Join(b.TempDir(), "floor"), os.O_WRONLY|os.O_CREATE|os.O_APPEND, 0o644)
		if err != nil {
			b.Fatal(err)
		}
		defer f.Close()
		buf := make([]byte, 400)
		for b.Loop() {
			if _, err := f.Write(buf); err != nil {
				b.Fatal(err)
			}
			if err := datasync(f); err != nil {
				b.Fatal(err)
			}
		}
	})
	for _, batch := range []int{1, 64} {
		name := "sync=each"
		if batch > 1 {
			name = "sync=batch"
		}
		b.Run(name, func(b *testing.B) {
			ctx := b.Context()
			st, err := store.Open(b.TempDir())
			if err != nil {
				b.Fatal(err)
			}
			defer st.Close()
			// A driver holds its session's lock, as the conductor does.
			if _, err := st.Lock(ctx, "s"); err != nil {
				b.Fatal(err)
			}
			recs := storetest.Script("bench", b.N)
			b.ResetTimer()
			for i := 0; i < b.N; i += batch {
				if _, err := st.Append(ctx, "s", recs[i:min(i+batch, b.N)]...); err != nil {
					b.Fatal(err)
				}
			}
		})
	}
}

// BenchmarkAppendConcurrent has 100 sessions append one record at a time
// each, all at once, on one real folder, and reports records/s; floor is
// 100 goroutines each appending 400 bytes and fdatasync-ing its own file.
func BenchmarkAppendConcurrent(b *testing.B) {
	const sessions = 100
	b.Run("floor", func(b *testing.B) {
		dir := b.TempDir()
		files := make([]*os.File, sessions)
		for i := range files {
			f, err := os.OpenFile(filepath.Join(dir, fmt.Sprint(i)), os.O_WRONLY|os.O_CREATE|os.O_APPEND, 0o644)
			if err != nil {
				b.Fatal(err)
			}
			defer f.Close()
			files[i] = f
		}
		buf := make([]byte, 400)
		concurrently(b, sessions, func(i, n int) error {
			for range n {
				if _, err := files[i].Write(buf); err != nil {
					return err
				}
				if err := datasync(files[i]); err != nil {
					return err
				}
			}
			return nil
		})
	})
	b.Run("store", func(b *testing.B) {
		st, err := store.Open(b.TempDir())
		if err != nil {
			b.Fatal(err)
		}
		defer st.Close()
		storetest.AppendConcurrently(b, st, sessions)
	})
}

// concurrently runs work on g goroutines, splitting b.N operations among
// them, and reports the operations per second.
func concurrently(b *testing.B, g int, work func(i, n int) error) {
	b.Helper()
	per := b.N/g + 1
	errs := make(chan error, g)
	b.ResetTimer()
	start := time.Now()
	var wg sync.WaitGroup
	for i := range g {
		wg.Go(func() { errs <- work(i, per) })
	}
	wg.Wait()
	elapsed := time.Since(start)
	close(errs)
	for err := range errs {
		if err != nil {
			b.Fatal(err)
		}
	}
	b.ReportMetric(float64(g*per)/elapsed.Seconds(), "records/s")
}

// noCheckpoints hides checkpoints so every Resume folds the whole chain.
type noCheckpoints struct{ store.Store }

func (noCheckpoints) Checkpoint(context.Context, string) (store.Checkpoint, error) {
	return store.Checkpoint{}, store.ErrNotFound
}

func (noCheckpoints) SaveCheckpoint(context.Context, string, store.Hash, contract.RunSnapshot) error {
	return nil
}

// BenchmarkResume folds a 10,000-record session from the start, every node
// read from an in-memory folder and verified.
func BenchmarkResume(b *testing.B) {
	b.Run("records=10000", func(b *testing.B) {
		ctx := b.Context()
		rules := testRules()
		recs, _ := cadenceSession(b, rules, "s", 10000)
		fst, err := store.OpenFS(vfs.NewMem())
		if err != nil {
			b.Fatal(err)
		}
		if _, err := fst.Append(ctx, "s", recs...); err != nil {
			b.Fatal(err)
		}
		st := noCheckpoints{fst}
		b.ResetTimer()
		for b.Loop() {
			snap, err := store.Resume(ctx, st, rules, "s")
			if err != nil || snap.Steps != 10000 {
				b.Fatal(snap.Steps, err)
			}
		}
	})
}

type countFS struct {
	vfs.FS
	written *atomic.Int64
}

func (c countFS) Create(name string) (vfs.File, error) {
	f, err := c.FS.Create(name)
	return countFile{f, c.written}, err
}

func (c countFS) OpenAppend(name string) (vfs.File, error) {
	f, err := c.FS.OpenAppend(name)
	return countFile{f, c.written}, err
}

type countFile struct {
	vfs.File
	written *atomic.Int64
}

func (c countFile) Write(p []byte) (int, error) {
	c.written.Add(int64(len(p)))
	return c.File.Write(p)
}

// BenchmarkBytesPerRecord reports the bytes one append writes (object and
// ref) after a history of 10 and of 10,000 records: a node holds one
// record and its parent's hash, so the figure must not grow.
func BenchmarkBytesPerRecord(b *testing.B) {
	for _, history := range []int{10, 10000} {
		b.Run(fmt.Sprintf("history=%d", history), func(b *testing.B) {
			ctx := b.Context()
			var written atomic.Int64
			st, err := store.OpenFS(countFS{vfs.NewMem(), &written})
			if err != nil {
				b.Fatal(err)
			}
			recs := storetest.Script("bench", history+b.N)
			if _, err := st.Append(ctx, "s", recs[:history]...); err != nil {
				b.Fatal(err)
			}
			written.Store(0)
			b.ResetTimer()
			for i := range b.N {
				if _, err := st.Append(ctx, "s", recs[history+i]); err != nil {
					b.Fatal(err)
				}
			}
			b.ReportMetric(float64(written.Load())/float64(b.N), "bytes/record")
		})
	}
}
