package anthropic

import (
	"context"
	"net/http"
	"net/http/httptest"
	"os"
	"regexp"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/batonrt/baton/turn/endpoint"
	"github.com/batonrt/baton/turn/transcripttest"
)

// TestStreamWithoutEventNames: some gateways relay the Messages stream as
// bare data lines, without the "event:" line naming each event. The
// SDK skips every unnamed event, so the reply came out empty and was
// retried as a broken stream; each event's JSON says its type, which
// names it.
func TestStreamWithoutEventNames(t *testing.T) {
	raw, err := os.ReadFile("testdata/text.sse")
	if err != nil {
		t.Fatal(err)
	}
	_, body, _ := strings.Cut(string(raw), "\n\n")
	tests := []struct {
		name string
		body string
	}{
		{"no event lines", regexp.MustCompile(`(?m)^event: .*\n`).ReplaceAllString(body, "")},
		{"no event lines, CRLF", strings.ReplaceAll(regexp.MustCompile(`(?m)^event: .*\n`).ReplaceAllString(body, ""), "\n", "\r\n")},
		{"no event lines, after a byte order mark", "\ufeff" + regexp.MustCompile(`(?m)^event: .*\n`).ReplaceAllString(body, "")},
		{"named as sent", body},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, _ *http.Request) {
				w.Header().Set("Content-Type", "text/event-stream")
				w.Write([]byte(tt.body))
			}))
			defer srv.Close()
			p := New(endpoint.BaseURL(srv.URL), endpoint.HTTPClient(srv.Client()))
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
