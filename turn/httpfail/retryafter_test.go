package httpfail

import (
	"math"
	"net/http"
	"testing"
	"time"

	"pgregory.net/rapid"
)

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
		{"not a number", http.Header{"Retry-After": {"NaN"}}, 0},
		{"infinite", http.Header{"Retry-After": {"Inf"}}, time.Duration(math.MaxInt64)},
		{"ms", http.Header{"Retry-After-Ms": {"250"}}, 250 * time.Millisecond},
		{"ms wins", http.Header{"Retry-After": {"7"}, "Retry-After-Ms": {"1500"}}, 1500 * time.Millisecond},
		{"bad ms falls back", http.Header{"Retry-After": {"7"}, "Retry-After-Ms": {"-1"}}, 7 * time.Second},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			if got := RetryAfter(tt.header, now); got != tt.want {
				t.Errorf("RetryAfter = %s, want %s", got, tt.want)
			}
		})
	}
}

// TestRetryAfterNeverNegative: whatever a server sends, the wait is zero
// or more and reading it never panics.
func TestRetryAfterNeverNegative(t *testing.T) {
	rapid.Check(t, func(t *rapid.T) {
		h := http.Header{}
		if rapid.Bool().Draw(t, "has seconds") {
			h.Set("Retry-After", rapid.OneOf(rapid.String(), rapid.StringMatching(`-?[0-9]{1,30}(\.[0-9]{1,5})?(e[0-9]{1,3})?`)).Draw(t, "seconds"))
		}
		if rapid.Bool().Draw(t, "has ms") {
			h.Set("Retry-After-Ms", rapid.OneOf(rapid.String(), rapid.StringMatching(`-?[0-9]{1,30}`)).Draw(t, "ms"))
		}
		if got := RetryAfter(h, time.Unix(rapid.Int64Range(0, 1<<40).Draw(t, "now"), 0)); got < 0 {
			t.Fatalf("RetryAfter(%v) = %s", h, got)
		}
	})
}
