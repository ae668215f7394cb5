package anthropic

import (
	"bytes"
	"context"
	"errors"
	"io"
	"net/http"
	"os"
	"path/filepath"
	"testing"

	sdk "github.com/anthropics/anthropic-sdk-go"
	"github.com/anthropics/anthropic-sdk-go/packages/ssestream"

	"github.com/batonrt/baton/turn"
)

// FuzzStream feeds arbitrary response bodies through the SDK's SSE decoder
// and ours, exactly as Stream does after the request: the stream must
// never panic, must end in a stop or a *turn.ProviderError, and must never
// name a tool call it did not start. The HTTP round trip is left out so
// the fuzzer runs fast; the transcript tests cover it.
func FuzzStream(f *testing.F) {
	files, _ := filepath.Glob(filepath.Join("testdata", "*.sse"))
	for _, name := range files {
		data, err := os.ReadFile(name)
		if err != nil {
			f.Fatal(err)
		}
		rs, err := parseTranscript(data)
		if err != nil {
			f.Fatal(err)
		}
		f.Add(rs[len(rs)-1].body)
	}
	f.Fuzz(func(t *testing.T, b []byte) {
		res := &http.Response{
			StatusCode: 200,
			Header:     http.Header{"Content-Type": {"text/event-stream"}},
			Body:       io.NopCloser(bytes.NewReader(b)),
		}
		stream := ssestream.NewStream[sdk.MessageStreamEventUnion](ssestream.NewDecoder(res), nil)
		checkStream(t, func(yield func(turn.Chunk, error) bool) { relay(context.Background(), stream, res, yield) })
	})
}

func checkStream(t *testing.T, seq func(func(turn.Chunk, error) bool)) {
	started := map[int]bool{}
	var last turn.Chunk
	for c, err := range seq {
		if err != nil {
			var pe *turn.ProviderError
			if !errors.As(err, &pe) {
				t.Fatalf("error %v (%T) is not a *turn.ProviderError", err, err)
			}
			return
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
