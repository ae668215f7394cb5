package anthropic

import (
	"context"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"

	"github.com/batonrt/baton/turn/endpoint"
)

// TestBaseURLPasswordNeverInErrors: a gateway reached with credentials in
// the base URL (https://user:password@host/) must not have the password
// repeated in the failure, which is logged and stored with the run. The
// SDK quotes the request URL whole in its error for a failed status.
func TestBaseURLPasswordNeverInErrors(t *testing.T) {
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, _ *http.Request) {
		w.Header().Set("Content-Type", "application/json")
		w.WriteHeader(http.StatusBadRequest)
		w.Write([]byte(`{"type":"error","error":{"type":"invalid_request_error","message":"bad"}}`))
	}))
	defer srv.Close()
	base := strings.Replace(srv.URL, "http://", "http://gateway:s3cret-pass@", 1)
	p := New(endpoint.BaseURL(base), endpoint.HTTPClient(srv.Client()))
	for _, err := range p.Stream(context.Background(), basicRequest()) {
		if err == nil {
			continue
		}
		if strings.Contains(err.Error(), "s3cret-pass") {
			t.Errorf("error repeats the base URL's password: %v", err)
		}
	}
}
