package httpfail

import (
	"math"
	"net/http"
	"strconv"
	"strings"
	"time"
)

// RetryAfter reads retry-after-ms, then Retry-After as seconds or an HTTP
// date relative to now. Absent, negative or unreadable headers give zero.
func RetryAfter(h http.Header, now time.Time) time.Duration {
	if d, ok := scaled(h.Get("Retry-After-Ms"), time.Millisecond); ok {
		return d
	}
	v := strings.TrimSpace(h.Get("Retry-After"))
	if v == "" {
		return 0
	}
	if _, err := strconv.ParseFloat(v, 64); err == nil {
		d, _ := scaled(v, time.Second)
		return d
	}
	if t, err := http.ParseTime(v); err == nil && t.After(now) {
		return t.Sub(now)
	}
	return 0
}

// scaled reads v as a non-negative count of unit; ok is false for
// anything else. Absurd counts give the longest duration, so a hostile
// header cannot overflow.
func scaled(v string, unit time.Duration) (time.Duration, bool) {
	n, err := strconv.ParseFloat(strings.TrimSpace(v), 64)
	switch {
	case err != nil, math.IsNaN(n), n < 0:
		return 0, false
	case n*float64(unit) >= math.MaxInt64:
		return time.Duration(math.MaxInt64), true
	}
	return time.Duration(n * float64(unit)), true
}
