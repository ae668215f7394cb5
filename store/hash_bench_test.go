package store_test

import (
	"runtime"
	"sync"
	"testing"

	"github.com/zeebo/blake3"

	"github.com/batonrt/baton/store"
)

// BenchmarkHashStack reports the stack a goroutine keeps after hashing a
// 400-byte record once, for HashOf and for blake3.Sum256 (whose frame
// holds a whole hasher), over 1,000 goroutines parked afterwards. Every
// agent's loop hashes each step, and new goroutines start at the average
// stack size, so this is memory that 1,000 agents in flight keep.
func BenchmarkHashStack(b *testing.B) {
	data := make([]byte, 400)
	for _, c := range []struct {
		name string
		hash func([]byte)
	}{
		{"HashOf", func(p []byte) { store.HashOf(p) }},
		{"blake3.Sum256", func(p []byte) { blake3.Sum256(p) }},
	} {
		b.Run(c.name, func(b *testing.B) {
			const goroutines = 1000
			var total float64
			for b.Loop() {
				runtime.GC()
				var before, after runtime.MemStats
				runtime.ReadMemStats(&before)
				var hashed sync.WaitGroup
				park := make(chan struct{})
				for range goroutines {
					hashed.Add(1)
					go func() {
						c.hash(data)
						hashed.Done()
						<-park
					}()
				}
				hashed.Wait()
				runtime.ReadMemStats(&after)
				close(park)
				total += float64(after.StackInuse-before.StackInuse) / goroutines
			}
			b.ReportMetric(total/float64(b.N), "stack-bytes/goroutine")
		})
	}
}
