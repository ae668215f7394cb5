package transcripttest

import (
	"bytes"
	"context"
	"io"
	"net/http"
	"testing"

	"github.com/batonrt/baton/turn"
	"github.com/batonrt/baton/turn/httpfail"
	"github.com/batonrt/baton/turn/relay"
)

// Fuzz feeds arbitrary response bodies, seeded from the transcripts in
// dir, through a provider's SSE decoding exactly as relay.SDK does after
// the request: events reads the body as the SDK does, newDecoder and
// failures are the provider's. The stream must keep CheckStream's
// invariants and never panic. The HTTP round trip is left out so the
// fuzzer runs fast; the transcript checks cover it.
func Fuzz[E any](f *testing.F, dir string, events func(*http.Response) relay.Events[E], newDecoder func() relay.Decoder[E], failures httpfail.Classifier) {
	Seed(f, dir)
	f.Fuzz(func(t *testing.T, b []byte) {
		res := &http.Response{
			StatusCode: 200,
			Header:     http.Header{"Content-Type": {"text/event-stream"}},
			Body:       io.NopCloser(bytes.NewReader(b)),
		}
		stream := events(res)
		CheckStream(t, func(yield func(turn.Chunk, error) bool) {
			relay.Run(context.Background(), stream, res, newDecoder(), failures, yield)
		})
	})
}
