package openai

import (
	"context"
	"errors"
	"net/http"
	"net/http/httptest"
	"sync"
	"testing"

	"github.com/batonrt/baton/contract"
	"github.com/batonrt/baton/turn"
	"github.com/batonrt/baton/turn/endpoint"
)

// Concurrent streams of one keyed provider each see their own response:
// a 429 stays a rate limit with its status in every one of them.
func TestConcurrentStreamsKeepTheirOwnResponse(t *testing.T) {
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Retry-After", "3")
		w.WriteHeader(http.StatusTooManyRequests)
		_, _ = w.Write([]byte(`{"error":{"message":"slow down"}}`))
	}))
	defer srv.Close()
	p := New(endpoint.BaseURL(srv.URL), endpoint.APIKey("k"), endpoint.HTTPClient(srv.Client()))
	const callers = 8
	errs := make([]error, callers*4)
	var wg sync.WaitGroup
	for i := range errs {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for _, err := range p.Stream(context.Background(), basicRequest()) {
				errs[i] = err
			}
		}()
	}
	wg.Wait()
	for i, err := range errs {
		var pe *turn.ProviderError
		if !errors.As(err, &pe) || pe.Failure != contract.FailRateLimited || pe.Status != http.StatusTooManyRequests {
			t.Errorf("call %d: got %v, want a rate limit with status 429", i, err)
		}
	}
}
