package storetest

import (
	"fmt"
	"sync"
	"testing"
	"time"

	"github.com/batonrt/baton/store"
)

// AppendConcurrently has sessions goroutines each lock a session of st
// and append one record per commit to it, all at once, b.N records in
// all, and reports records/s: the figure a backend's commits reach when
// many sessions share it. The file store's and PostgreSQL's benchmarks
// both run it, so their figures compare.
func AppendConcurrently(b *testing.B, st store.Store, sessions int) {
	b.Helper()
	ctx := b.Context()
	per := b.N/sessions + 1
	recs := Script("bench", per)
	for i := range sessions {
		if _, err := st.Lock(ctx, fmt.Sprint("s", i)); err != nil {
			b.Fatal(err)
		}
	}
	errs := make(chan error, sessions)
	b.ResetTimer()
	start := time.Now()
	var wg sync.WaitGroup
	for i := range sessions {
		wg.Go(func() {
			id := fmt.Sprint("s", i)
			for _, r := range recs {
				if _, err := st.Append(ctx, id, r); err != nil {
					errs <- err
					return
				}
			}
		})
	}
	wg.Wait()
	elapsed := time.Since(start)
	b.StopTimer()
	close(errs)
	for err := range errs {
		b.Fatal(err)
	}
	b.ReportMetric(float64(sessions*per)/elapsed.Seconds(), "records/s")
}
