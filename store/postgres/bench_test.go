package postgres

import (
	"sync"
	"testing"
	"time"

	"github.com/batonrt/baton/store"
	"github.com/batonrt/baton/store/postgres/pgtest"
	"github.com/batonrt/baton/store/storetest"
)

// BenchmarkAppend appends one record per commit to one locked session.
func BenchmarkAppend(b *testing.B) {
	ctx := b.Context()
	st := store.New(openBackend(b, pgtest.SchemaURL(b)))
	defer st.Close()
	if _, err := st.Lock(ctx, "s"); err != nil {
		b.Fatal(err)
	}
	recs := storetest.Script("bench", b.N)
	b.ResetTimer()
	for i := range b.N {
		if _, err := st.Append(ctx, "s", recs[i]); err != nil {
			b.Fatal(err)
		}
	}
}

// BenchmarkAppendConcurrent has 100 locked sessions append one record per
// commit each, all at once, over a pool of 20 connections, and reports
// records/s; file is the same on the file store in a temporary folder, in
// the same run. floor is the server's: 100 goroutines committing one
// 400-byte row each per transaction over the same pool.
func BenchmarkAppendConcurrent(b *testing.B) {
	const sessions = 100
	b.Run("floor", func(b *testing.B) {
		ctx := b.Context()
		pb := openBackend(b, pgtest.SchemaURL(b)+"&pool_max_conns=20")
		defer pb.Close()
		if _, err := pb.pool.Exec(ctx, `CREATE TABLE floor (id bigserial PRIMARY KEY, b bytea)`); err != nil {
			b.Fatal(err)
		}
		row := make([]byte, 400)
		concurrently(b, sessions, func(i, n int) error {
			for range n {
				if _, err := pb.pool.Exec(ctx, `INSERT INTO floor (b) VALUES ($1)`, row); err != nil {
					return err
				}
			}
			return nil
		})
	})
	b.Run("store", func(b *testing.B) {
		st := store.New(openBackend(b, pgtest.SchemaURL(b)+"&pool_max_conns=20"))
		defer st.Close()
		storetest.AppendConcurrently(b, st, sessions)
	})
	// The file store on this machine's disk, in the same run.
	b.Run("file", func(b *testing.B) {
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
