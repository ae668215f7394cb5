package openai

import (
	"context"
	"net/http"
	"net/http/httptest"
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/batonrt/baton/contract"
	"github.com/batonrt/baton/turn"
	"github.com/batonrt/baton/turn/endpoint"
)

// TestStreamStartingWithBOM: the event-stream format lets a stream open
// with a byte order mark, which some gateways send. The SDK read it as
// part of the first field's name and dropped the first chunk's text.
func TestStreamStartingWithBOM(t *testing.T) {
	const body = "\ufeffdata: {\"id\":\"c1\",\"object\":\"chat.completion.chunk\",\"choices\":[{\"index\":0,\"delta\":{\"role\":\"assistant\",\"content\":\"Hello\"}}]}\n\n" +
		"data: {\"id\":\"c1\",\"object\":\"chat.completion.chunk\",\"choices\":[{\"index\":0,\"delta\":{},\"finish_reason\":\"stop\"}]}\n\n" +
		"data: [DONE]\n\n"
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, _ *http.Request) {
		w.Header().Set("Content-Type", "text/event-stream")
		w.Write([]byte(body))
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
	if diff := cmp.Diff([]turn.Chunk{said("", "c1"), text("Hello"), stop(contract.StopEndTurn)}, got); diff != "" {
		t.Errorf("mismatch (-want +got):\n%s", diff)
	}
}
