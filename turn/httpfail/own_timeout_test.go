package httpfail

import (
	"context"
	"io"
	"net/http"
	"net/http/httptest"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"

	"github.com/batonrt/baton/contract"
)

// TestClassifyClientTimeout checks that the HTTP client's own timeout,
// which leaves the caller's context alive, is a timeout, whether it
// struck before the response or while its body streamed.
func TestClassifyClientTimeout(t *testing.T) {
	release := make(chan struct{})
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if r.URL.Path == "/body" {
			w.WriteHeader(http.StatusOK)
			w.(http.Flusher).Flush()
		}
		select {
		case <-release:
		case <-r.Context().Done():
		}
	}))
	defer srv.Close()
	defer close(release)
	client := &http.Client{Timeout: 50 * time.Millisecond}
	c := Classifier{API: "demo"}

	type got struct {
		Fail      contract.FailureKind
		Retryable bool
	}
	for _, path := range []string{"/headers", "/body"} {
		t.Run(path, func(t *testing.T) {
			ctx := context.Background()
			resp, err := client.Get(srv.URL + path)
			if err == nil {
				defer resp.Body.Close()
				_, err = io.ReadAll(resp.Body)
			}
			if err == nil {
				t.Fatal("the client timeout did not strike")
			}
			pe := c.Classify(ctx, resp, err)
			if diff := cmp.Diff(got{contract.FailTimeout, true}, got{pe.Failure, pe.Retryable()}); diff != "" {
				t.Errorf("Classify(%v) mismatch (-want +got):\n%s", err, diff)
			}
		})
	}
}
