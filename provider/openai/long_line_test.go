package openai

import (
	"context"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"

	"github.com/batonrt/baton/contract"
	"github.com/batonrt/baton/turn/endpoint"
	"github.com/batonrt/baton/turn/transcripttest"
)

// TestEndlessLineFails: a server (or a gateway gone wrong) that sends
// one line without end must fail the reply once the line passes what
// any event can hold, as the SDK fails it, and not be read into memory
// for as long as it keeps sending.
func TestEndlessLineFails(t *testing.T) {
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Content-Type", "text/event-stream")
		w.Write([]byte("data: {\"id\":\"c\",\"object\":\"chat.completion.chunk\",\"model\":\"m\",\"choices\":[]}\n\ndata: \""))
		chunk := []byte(strings.Repeat("a", 1<<20))
		// Twice what an event may hold, then silence: the line never ends.
		for range 64 {
			if _, err := w.Write(chunk); err != nil {
				return
			}
		}
		w.(http.Flusher).Flush()
		<-r.Context().Done()
	}))
	defer srv.Close()
	ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
	defer cancel()
	_, err := transcripttest.Collect(ctx, New(endpoint.BaseURL(srv.URL)), basicRequest())
	pe := transcripttest.FailureOf(t, err)
	type failure struct {
		Kind    contract.FailureKind
		Message string
	}
	if diff := cmp.Diff(failure{contract.FailStream, "openai: stream broke"}, failure{pe.Failure, pe.Message}); diff != "" {
		t.Errorf("failure mismatch (-want +got):\n%s\n%v", diff, err)
	}
}
