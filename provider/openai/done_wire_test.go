package openai

import (
	"compress/gzip"
	"context"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/batonrt/baton/contract"
	"github.com/batonrt/baton/turn"
	"github.com/batonrt/baton/turn/endpoint"
)

// TestDoneOnTheWire: a reply without a finish_reason is whole only when
// a line of the body is the SDK's end marker, however the body arrives:
// a byte a read, CRLF lines, no space after "data:", comments between
// events, gzip. "[DONE]" inside an event's JSON, in a comment, or a
// marker cut short, is no end.
func TestDoneOnTheWire(t *testing.T) {
	hiWith := func(text string) string { return strings.Replace(hiFrame, `"Hi."`, text, 1) }
	tests := []struct {
		name string
		body string
		gzip bool
		want string // the reply's text and stop, or the failure
	}{
		{"a byte a read", "data: " + hiFrame + "\n\ndata: [DONE]\n\n", false, "Hi. end_turn"},
		{"CRLF lines", "data: " + hiFrame + "\r\n\r\ndata: [DONE]\r\n\r\n", false, "Hi. end_turn"},
		{"no space after data:", "data: " + hiFrame + "\n\ndata:[DONE]\n\n", false, "Hi. end_turn"},
		{"keep-alive comments", ": keep-alive\n\ndata: " + hiFrame + "\n\n: keep-alive\n\ndata: [DONE]\n\n", false, "Hi. end_turn"},
		{"gzip", "data: " + hiFrame + "\n\ndata: [DONE]\n\n", true, "Hi. end_turn"},
		{"a marker in the JSON", "data: " + hiWith(`"\ndata: [DONE]"`) + "\n\n", false, "failed stream"},
		{"a marker cut short", "data: " + hiFrame + "\n\ndata: [DON", false, "failed stream"},
		{"a marker in a comment", "data: " + hiFrame + "\n\n:data: [DONE]\n\n", false, "failed stream"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, _ *http.Request) {
				w.Header().Set("Content-Type", "text/event-stream")
				if tt.gzip {
					w.Header().Set("Content-Encoding", "gzip")
					z := gzip.NewWriter(w)
					z.Write([]byte(tt.body))
					z.Close()
					return
				}
				for i := range len(tt.body) {
					w.Write([]byte{tt.body[i]})
					w.(http.Flusher).Flush()
				}
			}))
			defer srv.Close()
			p := New(endpoint.BaseURL(srv.URL), endpoint.HTTPClient(srv.Client()))
			var desc string
			switch r := turn.NewDriver(p, turn.Options{NoFallback: true, Sleep: noSleep}).Run(context.Background(), basicRequest(), nil).(type) {
			case contract.ModelReplied:
				desc = r.Reply.Text() + " " + string(r.Stop)
			case contract.ModelFailed:
				desc = "failed " + string(r.Failure)
			}
			if diff := cmp.Diff(tt.want, desc); diff != "" {
				t.Errorf("outcome mismatch (-want +got):\n%s", diff)
			}
		})
	}
}
