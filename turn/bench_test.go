package turn_test

import (
	"context"
	"fmt"
	"iter"
	"strings"
	"testing"

	"github.com/batonrt/baton/contract"
	"github.com/batonrt/baton/turn"
)

// sliceProvider streams a fixed chunk slice with no other work, so the
// benchmark measures the driver alone.
type sliceProvider []turn.Chunk

func (p sliceProvider) Stream(ctx context.Context, _ contract.ModelRequest) iter.Seq2[turn.Chunk, error] {
	return func(yield func(turn.Chunk, error) bool) {
		for _, c := range p {
			if !yield(c, nil) {
				return
			}
		}
	}
}

func benchChunks(n int) sliceProvider {
	p := make(sliceProvider, 0, n+1)
	for i := range n {
		p = append(p, text(fmt.Sprintf("w%d ", i%10)))
	}
	return append(p, stop(contract.StopEndTurn))
}

// BenchmarkDriver is the driver's overhead over a stream of text chunks,
// publishing each delta to a no-op subscriber.
func BenchmarkDriver(b *testing.B) { benchDriver(b, turn.Options{}) }

// BenchmarkDriverFixedClock is BenchmarkDriver without the clock read that
// stamps each event, which dominates on machines with a slow clock.
func BenchmarkDriverFixedClock(b *testing.B) {
	benchDriver(b, turn.Options{Now: func() contract.Timestamp { return 1 }})
}

func benchDriver(b *testing.B, opts turn.Options) {
	for _, n := range []int{1000} {
		b.Run(fmt.Sprintf("chunks=%d", n), func(b *testing.B) {
			d := turn.NewDriver(benchChunks(n), opts)
			req := contract.ModelRequest{Model: "m", History: contract.HistoryOf(contract.UserText("hi"))}
			publish := func(*contract.RunEvent) {}
			b.ReportAllocs()
			for b.Loop() {
				if _, ok := d.Run(context.Background(), req, publish).(contract.ModelReplied); !ok {
					b.Fatal("no reply")
				}
			}
			b.ReportMetric(float64(b.Elapsed().Nanoseconds())/float64(b.N*n), "ns/chunk")
		})
	}
}

// BenchmarkBareLoop is the baseline: a hand-written loop that only
// concatenates the same chunks.
func BenchmarkBareLoop(b *testing.B) {
	for _, n := range []int{1000} {
		b.Run(fmt.Sprintf("chunks=%d", n), func(b *testing.B) {
			p := benchChunks(n)
			b.ReportAllocs()
			for b.Loop() {
				var sb strings.Builder
				for c, err := range p.Stream(context.Background(), contract.ModelRequest{}) {
					if err != nil {
						b.Fatal(err)
					}
					if c.Kind == turn.ChunkText {
						sb.WriteString(c.Text)
					}
				}
				if sb.Len() == 0 {
					b.Fatal("empty")
				}
			}
			b.ReportMetric(float64(b.Elapsed().Nanoseconds())/float64(b.N*n), "ns/chunk")
		})
	}
}
