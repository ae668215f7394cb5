package aisdk

import (
	"io"
	"testing"

	"github.com/batonrt/baton/wire/internal/sse"
)

// BenchmarkUIMessageStream projects and encodes one live tool-call run
// (14 baton events) onto the UI message stream.
func BenchmarkUIMessageStream(b *testing.B) {
	events := liveRun()
	w := sse.New(io.Discard)
	b.ReportAllocs()
	for b.Loop() {
		p := NewProjector("thread-1")
		for _, e := range events {
			for _, c := range p.Project(e) {
				if err := w.WriteJSON("", c); err != nil {
					b.Fatal(err)
				}
			}
		}
		if err := w.WriteEvent("", "", []byte("[DONE]")); err != nil {
			b.Fatal(err)
		}
	}
}
