package transcripttest

import (
	"iter"
	"os"
	"path/filepath"
	"testing"

	"github.com/batonrt/baton/turn"
)

// CheckStream drains seq and fails the test unless it keeps the stream's
// invariants: it ends in a stop or a *turn.ProviderError, never
// continues or ends a tool call it did not start, nor starts one twice,
// and says which reply it is (turn.ChunkResponse) at most once, before
// its first content chunk and its stop.
func CheckStream(t testing.TB, seq iter.Seq2[turn.Chunk, error]) {
	t.Helper()
	started := map[int]bool{}
	var last turn.Chunk
	var said bool            // a response chunk came
	var begun turn.ChunkKind // the first chunk other than usage or response
	for c, err := range seq {
		if err != nil {
			FailureOf(t, err)
			return
		}
		switch c.Kind {
		case turn.ChunkResponse:
			if said {
				t.Fatalf("a second response chunk %+v: a reply has one model and one id", c)
			}
			if begun != "" {
				t.Fatalf("response chunk %+v after a %s chunk, want it before the reply's content and stop", c, begun)
			}
			said = true
		case turn.ChunkUsage:
		default:
			if begun == "" {
				begun = c.Kind
			}
		}
		switch c.Kind {
		case turn.ChunkToolCallStart:
			if started[c.Index] {
				t.Fatalf("call %d started twice", c.Index)
			}
			started[c.Index] = true
		case turn.ChunkToolCallArgs, turn.ChunkToolCallEnd:
			if !started[c.Index] {
				t.Fatalf("%s for call %d that never started", c.Kind, c.Index)
			}
		}
		last = c
	}
	if last.Kind != turn.ChunkStop {
		t.Fatalf("stream ended without error on %+v, want a stop", last)
	}
}

// Seed adds to f's corpus the last response body of every transcript
// (*.sse) in dir: the one a successful attempt decodes.
func Seed(f *testing.F, dir string) {
	f.Helper()
	files, err := filepath.Glob(filepath.Join(dir, "*.sse"))
	if err != nil {
		f.Fatal(err)
	}
	for _, name := range files {
		data, err := os.ReadFile(name)
		if err != nil {
			f.Fatal(err)
		}
		rs, err := Parse(data)
		if err != nil {
			f.Fatalf("%s: %v", name, err)
		}
		f.Add(rs[len(rs)-1].Body)
	}
}
