package anthropic

import (
	"context"
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/batonrt/baton/contract"
	"github.com/batonrt/baton/turn/transcripttest"
)

// TestBrokenStreams: a stream the decoder cannot make a reply of fails
// with an error that names this package and keeps what went wrong
// underneath, and never panics: JSON cut short, data that is no JSON, a
// web page sent as an event stream or as one. Events of types the API
// does not (yet) send are skipped: they neither break a reply nor make
// one.
func TestBrokenStreams(t *testing.T) {
	body := recordedTextEvents(t)
	const (
		page    = "<!doctype html>\n<html><body>\n\nSign in\n\n</body></html>\n"
		unknown = "event: message_rewind\ndata: {\"type\":\"message_rewind\",\"index\":0}\n\n"
	)
	type failure struct {
		Kind    contract.FailureKind
		Message string
		Wrapped bool // the error underneath is kept
	}
	tests := []struct {
		name, contentType, body string
		want                    *failure // nil: the reply is whole
	}{
		{"truncated JSON", "text/event-stream", body[:200] + "\n\n",
			&failure{contract.FailStream, "anthropic: stream broke", true}},
		{"data that is no JSON", "text/event-stream", "event: message_start\ndata: <html>\n\n",
			&failure{contract.FailStream, "anthropic: stream broke", true}},
		{"unknown event types only", "text/event-stream", unknown + "data: {\"type\":\"message_rewind\"}\n\n",
			&failure{contract.FailStream, "anthropic: stream ended before message_stop", false}},
		{"unknown event types amid a reply", "text/event-stream", unknown + body + "\n" + unknown, nil},
		{"a web page as an event stream", "text/event-stream", page,
			&failure{contract.FailStream, "anthropic: stream ended before message_stop", false}},
		{"a web page", "text/html", page,
			&failure{contract.FailInvalidRequest, "anthropic: the server answered with a web page, not the API; check the base URL", true}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			_, p := suite.ServeBody(t, tt.contentType, tt.body)
			_, err := transcripttest.Collect(context.Background(), p, basicRequest())
			var got *failure
			if err != nil {
				pe := transcripttest.FailureOf(t, err)
				got = &failure{pe.Failure, pe.Message, pe.Err != nil}
			}
			if diff := cmp.Diff(tt.want, got); diff != "" {
				t.Errorf("failure mismatch (-want +got):\n%s\n%v", diff, err)
			}
		})
	}
}
