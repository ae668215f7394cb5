package openai

import (
	"context"
	"errors"
	"fmt"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"

	"github.com/batonrt/baton/contract"
	"github.com/batonrt/baton/turn"
	"github.com/batonrt/baton/turn/endpoint"
)

// TestHTMLPageInsteadOfStream: a base URL that reaches a web UI, or a
// proxy's login page, answers 200 with HTML. That is a setup to fix, not
// a stream that broke: it must not be retried, and the error must say
// what came back rather than that the stream ended early.
func TestHTMLPageInsteadOfStream(t *testing.T) {
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, _ *http.Request) {
		w.Header().Set("Content-Type", "text/html; charset=utf-8")
		fmt.Fprint(w, "<!doctype html><html><body>Sign in to the corporate gateway</body></html>")
	}))
	defer srv.Close()
	p := New(endpoint.BaseURL(srv.URL), endpoint.HTTPClient(srv.Client()))
	// The driver falls back to Complete when a stream fails before its
	// first chunk: the page is the same mistake there, though the SDK has
	// read the page by then, so it is not quoted.
	paths := []struct {
		name   string
		quoted bool
		call   func() error
	}{
		{"stream", true, func() error {
			var got error
			for c, err := range p.Stream(context.Background(), basicRequest()) {
				if err == nil {
					t.Fatalf("chunk %+v from an HTML page", c)
				}
				got = err
			}
			return got
		}},
		{"complete", false, func() error {
			chunks, err := p.Complete(context.Background(), basicRequest())
			if err == nil {
				t.Fatalf("chunks %+v from an HTML page", chunks)
			}
			return err
		}},
	}
	for _, path := range paths {
		t.Run(path.name, func(t *testing.T) {
			got := path.call()
			var pe *turn.ProviderError
			if !errors.As(got, &pe) {
				t.Fatalf("error %v, want a *turn.ProviderError", got)
			}
			if pe.Failure != contract.FailInvalidRequest || pe.Retryable() {
				t.Errorf("failure %s (retryable %t), want %s, not retryable", pe.Failure, pe.Retryable(), contract.FailInvalidRequest)
			}
			wants := []string{"web page", "text/html"}
			if path.quoted {
				wants = append(wants, "Sign in to the corporate gateway")
			}
			for _, want := range wants {
				if !strings.Contains(got.Error(), want) {
					t.Errorf("error %q does not say %q", got, want)
				}
			}
		})
	}
}
