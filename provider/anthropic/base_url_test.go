package anthropic

import (
	"context"
	"net/http"
	"net/http/httptest"
	"sync"
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/batonrt/baton/turn/endpoint"
)

// TestBaseURLWithOrWithoutV1: Anthropic's paths all begin with /v1, which
// the SDK adds; a base URL copied with it, as gateways document theirs,
// still reaches /v1/messages rather than /v1/v1/messages.
func TestBaseURLWithOrWithoutV1(t *testing.T) {
	var mu sync.Mutex
	var paths []string
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		mu.Lock()
		paths = append(paths, r.URL.Path)
		mu.Unlock()
		w.WriteHeader(http.StatusBadRequest)
	}))
	defer srv.Close()
	for _, base := range []string{srv.URL, srv.URL + "/", srv.URL + "/v1", srv.URL + "/v1/", srv.URL + "/gw/v1"} {
		p := New(endpoint.BaseURL(base), endpoint.HTTPClient(srv.Client()))
		for range p.Stream(context.Background(), basicRequest()) {
		}
	}
	want := []string{"/v1/messages", "/v1/messages", "/v1/messages", "/v1/messages", "/gw/v1/messages"}
	mu.Lock()
	defer mu.Unlock()
	if diff := cmp.Diff(want, paths); diff != "" {
		t.Errorf("request paths mismatch (-want +got):\n%s", diff)
	}
}
