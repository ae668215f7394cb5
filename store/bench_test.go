package store_test

import (
	"context"
	"fmt"
	"sync/atomic"
	"testing"

	"github.com/batonrt/baton/contract"
	"github.com/batonrt/baton/store"
	"github.com/batonrt/baton/store/storetest"
	"github.com/batonrt/baton/store/vfs"
)

// BenchmarkAppend appends records to a session on a real folder, one
// fsync'd append per record (sync=each) or 64 records per append
// (sync=batch); ns/op is per record either way.
func BenchmarkAppend(b *testing.B) {
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
