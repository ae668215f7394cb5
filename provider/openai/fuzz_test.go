package openai

import (
	"net/http"
	"testing"

	sdk "github.com/openai/openai-go/v3"
	"github.com/openai/openai-go/v3/packages/ssestream"

	"github.com/batonrt/baton/turn/relay"
	"github.com/batonrt/baton/turn/transcripttest"
)

// FuzzStream feeds arbitrary response bodies through the SDK's SSE decoder
// and ours, exactly as Stream does after the request.
func FuzzStream(f *testing.F) {
	transcripttest.Fuzz(f, "testdata", func(res *http.Response) relay.Events[sdk.ChatCompletionChunk] {
		return ssestream.NewStream[sdk.ChatCompletionChunk](ssestream.NewDecoder(res), nil)
	}, func() relay.Decoder[sdk.ChatCompletionChunk] { return &decoder{} }, failures)
}
