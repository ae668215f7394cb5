package anthropic

import (
	"context"
	"regexp"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/batonrt/baton/turn/transcripttest"
)

// TestStreamWithoutEventNames: some gateways relay the Messages stream as
// bare data lines, without the "event:" line naming each event. The
// SDK skips every unnamed event, so the reply came out empty and was
// retried as a broken stream; each event's JSON says its type, which
// names it.
func TestStreamWithoutEventNames(t *testing.T) {
	body := recordedTextEvents(t)
	bare := regexp.MustCompile(`(?m)^event: .*\n`).ReplaceAllString(body, "")
	tests := []struct {
		name string
		body string
	}{
		{"no event lines", bare},
		{"no event lines, CRLF", strings.ReplaceAll(bare, "\n", "\r\n")},
		{"no event lines, after a byte order mark", "\ufeff" + bare},
		{"named as sent", body},
		// A gateway that names some events (its own keep-alive ping, the
		// first event it passes on) and not the rest: every unnamed event
		// is named, not only those before the first named one.
		{"the first named, the rest not", "event: message_start\n" + bare},
		{"a named ping, then unnamed events", "event: ping\ndata: {\"type\": \"ping\"}\n\n" + bare},
		// An event line with no name names nothing: the SDK skips such an
		// event as it does one without the line.
		{"empty event lines", regexp.MustCompile(`(?m)^data: `).ReplaceAllString(bare, "event:\ndata: ")},
		{"event lines of one space", regexp.MustCompile(`(?m)^data: `).ReplaceAllString(bare, "event: \r\ndata: ")},
		{"names after extra spaces", regexp.MustCompile(`(?m)^event: `).ReplaceAllString(body, "event:   ")},
		{"a line longer than the read buffer", strings.Replace(bare, `data: {"type":"message_start"`, `data: {`+strings.Repeat(" ", 10000)+`"type":"message_start"`, 1)},
		{"keep-alive comments", regexp.MustCompile(`(?m)^data: `).ReplaceAllString(bare, ": keep-alive\ndata: ")},
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
