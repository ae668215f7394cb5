package ledger

import (
	"sync"
	"testing"

	"github.com/batonrt/baton/contract"
)

// BenchmarkHub publishes to 100 subscribers, one of which is slow (it
// blocks until the benchmark ends, so it lags), and reports events/s; and
// to none, as a run's events are when no one is watching.
func BenchmarkHub(b *testing.B) {
	b.Run("subscribers=0", func(b *testing.B) {
		h := NewHub(Options{})
		defer h.Close()
		e := ev(1)
		b.ReportAllocs()
		for i := 0; b.Loop(); i++ {
			e.Seq = uint64(i)
			h.Publish(&e)
		}
	})
	b.Run("subscribers=100", func(b *testing.B) {
		h := NewHub(Options{})
		gate := make(chan struct{})
		h.Subscribe(func(contract.RunEvent) { <-gate })
		for range 99 {
			h.Subscribe(func(contract.RunEvent) {})
		}
		e := ev(1)
		b.ReportAllocs()
		b.ResetTimer()
		for i := range b.N {
			e.Seq = uint64(i)
			h.Publish(&e)
		}
		b.StopTimer()
		b.ReportMetric(float64(b.N)/b.Elapsed().Seconds(), "events/s")
		close(gate)
		h.Close()
	})
	// The baseline is the cheapest fan-out there is: a send to 100
	// buffered channels, each drained by its own goroutine.
	b.Run("baseline=chan100", func(b *testing.B) {
		chans := make([]chan contract.RunEvent, 100)
		var wg sync.WaitGroup
		for i := range chans {
			chans[i] = make(chan contract.RunEvent, DefaultBuffer)
			wg.Add(1)
			go func() {
				defer wg.Done()
				for range chans[i] {
				}
			}()
		}
		e := ev(1)
		b.ResetTimer()
		for i := range b.N {
			e.Seq = uint64(i)
			for _, c := range chans {
				select {
				case c <- e:
				default:
				}
			}
		}
		b.StopTimer()
		b.ReportMetric(float64(b.N)/b.Elapsed().Seconds(), "events/s")
		for _, c := range chans {
			close(c)
		}
		wg.Wait()
	})
}
