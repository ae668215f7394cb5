package httpfail_test

import (
	"context"
	"errors"
	"fmt"
	"net/http"
	"time"

	"github.com/batonrt/baton/turn/httpfail"
)

// ExampleClassifier classifies a 429 that asks for a pause.
func ExampleClassifier() {
	c := httpfail.Classifier{API: "demo"}
	resp := &http.Response{StatusCode: 429, Header: http.Header{"Retry-After-Ms": {"1500"}}}
	pe := c.Classify(context.Background(), resp, errors.New("429 Too Many Requests"))
	fmt.Println(pe.Failure, pe.Status, pe.RetryAfter, pe.Retryable())
	// Output:
	// rate_limited 429 1.5s true
}

// ExampleRetryAfter reads a Retry-After given as an HTTP date.
func ExampleRetryAfter() {
	now := time.Date(2025, 1, 1, 12, 0, 0, 0, time.UTC)
	h := http.Header{"Retry-After": {now.Add(time.Minute).Format(http.TimeFormat)}}
	fmt.Println(httpfail.RetryAfter(h, now))
	// Output:
	// 1m0s
}
