package anthropic

import (
	"context"
	"errors"
	"net/http"
	"path/filepath"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"

	"github.com/batonrt/baton/contract"
)

func TestHTTPErrors(t *testing.T) {
	tests := []struct {
		name       string
		transcript string
		fail       contract.FailureKind
		status     int
		retryAfter time.Duration
	}{
		{"rate limit seconds", "### HTTP 429\nRetry-After: 7\n\n{\"type\":\"error\",\"error\":{\"type\":\"rate_limit_error\",\"message\":\"slow down\"}}\n", contract.FailRateLimited, 429, 7 * time.Second},
		{"rate limit ms wins", "### HTTP 429\nRetry-After: 7\nRetry-After-Ms: 1500\n\n{}\n", contract.FailRateLimited, 429, 1500 * time.Millisecond},
		{"overloaded", "### HTTP 529\n\n{\"type\":\"error\",\"error\":{\"type\":\"overloaded_error\",\"message\":\"Overloaded\"}}\n", contract.FailServer, 529, 0},
		{"server plain text", "### HTTP 502\nContent-Type: text/html\n\n<html>bad gateway</html>\n", contract.FailServer, 502, 0},
		{"unauthorized", "### HTTP 401\n\n{\"type\":\"error\",\"error\":{\"type\":\"authentication_error\",\"message\":\"invalid x-api-key\"}}\n", contract.FailAuth, 401, 0},
		{"forbidden", "### HTTP 403\n\n{\"type\":\"error\",\"error\":{\"type\":\"permission_error\",\"message\":\"no access\"}}\n", contract.FailAuth, 403, 0},
		{"prompt too long", "### HTTP 400\n\n{\"type\":\"error\",\"error\":{\"type\":\"invalid_request_error\",\"message\":\"prompt is too long: 210000 tokens > 200000 maximum\"}}\n", contract.FailContextOverflow, 400, 0},
		{"request too large", "### HTTP 413\n\n{\"type\":\"error\",\"error\":{\"type\":\"request_too_large\",\"message\":\"Request exceeds the maximum allowed number of bytes.\"}}\n", contract.FailContextOverflow, 413, 0},
		{"other 4xx", "### HTTP 404\n\n{\"type\":\"error\",\"error\":{\"type\":\"not_found_error\",\"message\":\"model: claude-9\"}}\n", contract.FailInvalidRequest, 404, 0},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			srv := serveBytes(t, []byte(tt.transcript))
			p := New(WithBaseURL(srv.URL), WithHTTPClient(srv.Client()))
			_, err := collect(context.Background(), p, basicRequest())
			pe := failureOf(t, err)
			type got struct {
				Fail       contract.FailureKind
				Status     int
				RetryAfter time.Duration
			}
			if diff := cmp.Diff(got{tt.fail, tt.status, tt.retryAfter}, got{pe.Failure, pe.Status, pe.RetryAfter}); diff != "" {
				t.Errorf("mismatch (-want +got):\n%s", diff)
			}
			if srv.served != 1 {
				t.Errorf("served %d requests, want 1: the SDK must not retry", srv.served)
			}
		})
	}
}

func TestRetryAfter(t *testing.T) {
	now := time.Date(2025, 1, 1, 12, 0, 0, 0, time.UTC)
	tests := []struct {
		name   string
		header http.Header
		want   time.Duration
	}{
		{"none", http.Header{}, 0},
		{"seconds", http.Header{"Retry-After": {"3"}}, 3 * time.Second},
		{"fraction", http.Header{"Retry-After": {"0.5"}}, 500 * time.Millisecond},
		{"http date", http.Header{"Retry-After": {now.Add(90 * time.Second).Format(http.TimeFormat)}}, 90 * time.Second},
		{"date in the past", http.Header{"Retry-After": {now.Add(-time.Minute).Format(http.TimeFormat)}}, 0},
		{"negative", http.Header{"Retry-After": {"-4"}}, 0},
		{"garbage", http.Header{"Retry-After": {"soon"}}, 0},
		{"ms", http.Header{"Retry-After-Ms": {"250"}}, 250 * time.Millisecond},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			if got := retryAfter(tt.header, now); got != tt.want {
				t.Errorf("retryAfter = %s, want %s", got, tt.want)
			}
		})
	}
}

// TestNeverEnds: a stream that goes quiet ends as soon as the caller's
// context does, with the context's error inside.
func TestNeverEnds(t *testing.T) {
	srv := serveTranscript(t, filepath.Join("testdata", "never_ends.sse"))
	p := New(WithBaseURL(srv.URL), WithHTTPClient(srv.Client()))
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	var err error
	var texts int
	for c, e := range p.Stream(ctx, basicRequest()) {
		if e != nil {
			err = e
			break
		}
		texts++
		if c.Text != "Hello" {
			t.Errorf("chunk %+v, want the one text chunk", c)
		}
		cancel()
	}
	if texts != 1 || !errors.Is(err, context.Canceled) {
		t.Errorf("got %d chunks and %v, want 1 chunk then context.Canceled", texts, err)
	}
	if pe := failureOf(t, err); pe.Retryable() {
		t.Errorf("a cancelled call must not be retryable: %v", pe)
	}
}

func TestDeadlineIsTimeout(t *testing.T) {
	srv := serveTranscript(t, filepath.Join("testdata", "never_ends.sse"))
	p := New(WithBaseURL(srv.URL), WithHTTPClient(srv.Client()))
	ctx, cancel := context.WithTimeout(context.Background(), 50*time.Millisecond)
	defer cancel()
	_, err := collect(ctx, p, basicRequest())
	if pe := failureOf(t, err); pe.Failure != contract.FailTimeout || !errors.Is(err, context.DeadlineExceeded) {
		t.Errorf("got %v, want a timeout wrapping context.DeadlineExceeded", err)
	}
}

func TestNetworkFailure(t *testing.T) {
	srv := serveTranscript(t, filepath.Join("testdata", "text.sse"))
	url, client := srv.URL, srv.Client()
	srv.Close()
	_, err := collect(context.Background(), New(WithBaseURL(url), WithHTTPClient(client)), basicRequest())
	if pe := failureOf(t, err); pe.Failure != contract.FailNetwork || !pe.Retryable() {
		t.Errorf("got %v, want a retryable network failure", err)
	}
}

func TestStopEarly(t *testing.T) {
	srv := serveTranscript(t, filepath.Join("testdata", "text.sse"))
	p := New(WithBaseURL(srv.URL), WithHTTPClient(srv.Client()))
	n := 0
	for range p.Stream(context.Background(), basicRequest()) {
		n++
		break
	}
	if n != 1 {
		t.Errorf("ranged %d chunks after break, want 1", n)
	}
}
