package wire

import (
	"io"
	"testing"
)

// BenchmarkUIMessageStream projects and encodes one live tool-call run
// (14 baton events) onto the UI message stream.
func BenchmarkUIMessageStream(b *testing.B) {
	events := liveRun()
	w := NewSSEWriter(io.Discard)
	b.ReportAllocs()
	for b.Loop() {
		p := NewUIMessageProjector("thread-1")
		for _, e := range events {
			for _, c := range p.Project(e) {
				if err := w.WriteUIChunk(c); err != nil {
					b.Fatal(err)
				}
			}
		}
		if err := w.WriteUIDone(); err != nil {
			b.Fatal(err)
		}
	}
}

// FuzzDecodeUIChatRequest checks that no body makes the decoder or the
// input extraction panic, and that accepted input is a user turn with
// text.
func FuzzDecodeUIChatRequest(f *testing.F) {
	f.Add([]byte(chatBody("c1", "hi")))
	f.Add([]byte(`{"id":"x","messages":[{"id":"a","role":"assistant","parts":[]}]}`))
	f.Add([]byte(`{"id":"x","messages":[{"role":"user","parts":[{"type":"text"}]}]}`))
	f.Fuzz(func(t *testing.T, b []byte) {
		in, err := DecodeUIChatRequest(b)
		if err != nil {
			return
		}
		turns, err := in.NewTurns()
		if err != nil {
			return
		}
		if len(turns) != 1 || turns[0].Role != "user" || turns[0].Text() == "" {
			t.Fatalf("accepted %q as %+v", b, turns)
		}
	})
}
