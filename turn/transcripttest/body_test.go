package transcripttest

import (
	"context"
	"testing"

	"github.com/google/go-cmp/cmp"
)

// TestServeBodyAsItIs: ServeBody answers every request with the body
// byte for byte, which a transcript's lines cannot hold (a byte order
// mark, lone CR line ends, no line end last), and keeps each request.
func TestServeBodyAsItIs(t *testing.T) {
	const body = "\ufeffdata: a\r\rdata: [DONE]"
	s := ServeBody(t, "text/event-stream", body)
	for i, sent := range []string{"first", "second"} {
		resp, got, err := get(t, context.Background(), s, sent)
		if err != nil {
			t.Fatal(err)
		}
		type answer struct {
			Status      int
			ContentType string
			Body        string
		}
		want := answer{200, "text/event-stream", body}
		if diff := cmp.Diff(want, answer{resp.StatusCode, resp.Header.Get("Content-Type"), got}); diff != "" {
			t.Errorf("response %d mismatch (-want +got):\n%s", i, diff)
		}
		if got := string(s.Request(i)); got != sent {
			t.Errorf("request %d = %q, want %q", i, got, sent)
		}
	}
}
