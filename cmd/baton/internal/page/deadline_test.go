package page

import (
	"net/http/httptest"
	"testing"
	"time"
)

// deadlineRecorder records the write deadline a handler sets.
type deadlineRecorder struct {
	*httptest.ResponseRecorder
	deadline time.Time
}

func (d *deadlineRecorder) SetWriteDeadline(t time.Time) error {
	d.deadline = t
	return nil
}

// The page and its assets are served to anyone, token or not: writing
// one is bounded, so that a client that asks and never reads is cut off
// rather than holding its connection, and the goroutine writing to it,
// for ever (the AI SDK bundle is larger than a socket's buffers).
func TestServeBoundsItsWrite(t *testing.T) {
	for _, target := range []string{"/", "/_page/ai.js"} {
		w := &deadlineRecorder{ResponseRecorder: httptest.NewRecorder()}
		before := time.Now()
		Handler().ServeHTTP(w, httptest.NewRequest("GET", target, nil))
		if w.Code != 200 || !w.deadline.After(before) {
			t.Errorf("GET %s: %d with write deadline %v, want 200 with one after %v", target, w.Code, w.deadline, before)
		}
	}
}
