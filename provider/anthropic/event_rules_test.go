package anthropic

import (
	"context"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/batonrt/baton/turn/transcripttest"
)

// TestEventStreamRules: the stream is read as the event-stream format
// says. A lone CR ends a line, as CRLF and LF do; an event without data
// is no event, not even one named "error"; id and retry lines, and lines
// with no colon that are no field of the format, change nothing.
func TestEventStreamRules(t *testing.T) {
	body := recordedTextEvents(t)
	const ping = "event: ping\ndata: {\"type\": \"ping\"}\n\n"
	tests := []struct {
		name string
		body string
	}{
		{"lone CR line ends", strings.ReplaceAll(body, "\n", "\r")},
		{"lone CR line ends, no event lines", strings.ReplaceAll(strings.ReplaceAll(body, "event: ", "x-event: "), "\n", "\r")},
		{"an error event without data", strings.Replace(body, ping, "event: error\n\n", 1)},
		{"id, retry and unknown fields", strings.ReplaceAll(body, "\ndata: ", "\nid: 1\nretry: 10\nevent-id\ndata: ")},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			_, p := suite.ServeBody(t, "text/event-stream", tt.body)
			got, err := transcripttest.Collect(context.Background(), p, basicRequest())
			if err != nil {
				t.Fatalf("stream failed: %v", err)
			}
			if diff := cmp.Diff(helloChunks, got); diff != "" {
				t.Errorf("mismatch (-want +got):\n%s", diff)
			}
		})
	}
}
