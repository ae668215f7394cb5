package transcripttest

import (
	"context"
	"testing"
)

// Bench serves transcript over loopback and streams it with the suite's
// request once per iteration, reporting chunks per second.
func (s Suite) Bench(b *testing.B, transcript []byte) {
	srv := Serve(b, transcript)
	p := s.Dial(srv.URL, srv.Client())
	req := s.Request()
	chunks := 0
	b.ReportAllocs()
	for b.Loop() {
		for _, err := range p.Stream(context.Background(), req) {
			if err != nil {
				b.Fatal(err)
			}
			chunks++
		}
	}
	b.ReportMetric(float64(chunks)/b.Elapsed().Seconds(), "chunks/s")
}
