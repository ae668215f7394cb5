package openai

import (
	"bytes"
	"context"
	"io"
	"net/http"
	"testing"

	sdk "github.com/openai/openai-go/v3"
	"github.com/openai/openai-go/v3/packages/ssestream"

	"github.com/batonrt/baton/turn"
	"github.com/batonrt/baton/turn/relay"
	"github.com/batonrt/baton/turn/transcripttest"
)

// FuzzStream feeds arbitrary response bodies through the SDK's SSE decoder
// and ours, exactly as Stream does after the request: the stream must
// never panic, must end in a stop or a *turn.ProviderError, and must never
// name a tool call it did not start. The HTTP round trip is left out so
// the fuzzer runs fast; the transcript tests cover it.
func FuzzStream(f *testing.F) {
	transcripttest.Seed(f, "testdata")
	f.Fuzz(func(t *testing.T, b []byte) {
		res := &http.Response{
			StatusCode: 200,
			Header:     http.Header{"Content-Type": {"text/event-stream"}},
			Body:       io.NopCloser(bytes.NewReader(b)),
		}
		stream := ssestream.NewStream[sdk.ChatCompletionChunk](ssestream.NewDecoder(res), nil)
		transcripttest.CheckStream(t, func(yield func(turn.Chunk, error) bool) {
			relay.Run(context.Background(), stream, res, &decoder{}, failures, yield)
		})
	})
}
