package anthropic

import (
	"net/http"
	"testing"

	sdk "github.com/anthropics/anthropic-sdk-go/v2"
	"github.com/anthropics/anthropic-sdk-go/v2/packages/ssestream"

	"github.com/batonrt/baton/turn/relay"
	"github.com/batonrt/baton/turn/transcripttest"
)

// FuzzStream feeds arbitrary response bodies through the SDK's SSE decoder
// and ours, exactly as Stream does after the request.
func FuzzStream(f *testing.F) {
	transcripttest.Fuzz(f, "testdata", func(res *http.Response) relay.Events[sdk.MessageStreamEventUnion] {
		return ssestream.NewStream[sdk.MessageStreamEventUnion](ssestream.NewDecoder(res), nil)
	}, func() relay.Decoder[sdk.MessageStreamEventUnion] { return &decoder{} }, failures)
}
