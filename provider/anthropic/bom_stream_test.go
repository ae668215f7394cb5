package anthropic

import (
	"context"
	"net/http"
	"net/http/httptest"
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/batonrt/baton/turn"
	"github.com/batonrt/baton/turn/endpoint"
)

// TestStreamStartingWithBOM: the event-stream format lets a stream open
// with a byte order mark, which some gateways send. The SDK read it as
// part of the first field's name and dropped message_start, and with it
// the prompt's token count.
func TestStreamStartingWithBOM(t *testing.T) {
	body := recordedTextEvents(t)
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, _ *http.Request) {
		w.Header().Set("Content-Type", "text/event-stream")
		w.Write([]byte("\ufeff" + body))
	}))
	defer srv.Close()
	p := New(endpoint.BaseURL(srv.URL), endpoint.HTTPClient(srv.Client()))
	var got []turn.Chunk
	for c, err := range p.Stream(context.Background(), basicRequest()) {
		if err != nil {
			t.Fatal(err)
		}
		got = append(got, c)
	}
	if diff := cmp.Diff(helloChunks, got); diff != "" {
		t.Errorf("mismatch (-want +got):\n%s", diff)
	}
}
