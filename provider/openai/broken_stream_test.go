package openai

import (
	"context"
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/batonrt/baton/contract"
	"github.com/batonrt/baton/turn/transcripttest"
)

// TestBrokenStreams: a stream the decoders cannot make a reply of fails
// with an error that names this package and keeps what went wrong
// underneath, and never panics: JSON cut short, data that is no JSON,
// events of types no chat completion has, a web page sent as an event
// stream or as one.
func TestBrokenStreams(t *testing.T) {
	const page = "<!doctype html>\n<html><body>\n\nSign in\n\n</body></html>\n"
	type failure struct {
		Kind    contract.FailureKind
		Message string
		Wrapped bool // the error underneath is kept
	}
	tests := []struct {
		name, contentType, body string
		want                    failure
	}{
		{"truncated JSON", "text/event-stream", "data: " + hiFrame[:40] + "\n\ndata: [DONE]\n\n",
			failure{contract.FailStream, "openai: stream broke", true}},
		{"data that is no JSON", "text/event-stream", "data: <html>\n\n",
			failure{contract.FailStream, "openai: stream broke", true}},
		{"unknown event types only", "text/event-stream", "event: response.created\ndata: {\"type\":\"response.created\"}\n\nevent: ping\ndata: {}\n\n",
			failure{contract.FailStream, "openai: stream ended before finish_reason", false}},
		{"a web page as an event stream", "text/event-stream", page,
			failure{contract.FailStream, "openai: stream ended before finish_reason", false}},
		{"a web page", "text/html", page,
			failure{contract.FailInvalidRequest, "openai: the server answered with a web page, not the API; check the base URL", true}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			_, p := suite.ServeBody(t, tt.contentType, tt.body)
			_, err := transcripttest.Collect(context.Background(), p, basicRequest())
			pe := transcripttest.FailureOf(t, err)
			if diff := cmp.Diff(tt.want, failure{pe.Failure, pe.Message, pe.Err != nil}); diff != "" {
				t.Errorf("failure mismatch (-want +got):\n%s\n%v", diff, err)
			}
		})
	}
}
