package wire

import (
	"context"
	"io"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"
	"time"
)

// deadlineRecorder is a response writer that counts the writes made
// before any write deadline was set.
type deadlineRecorder struct {
	*httptest.ResponseRecorder
	armed  bool
	writes int
	bare   int
}

func (d *deadlineRecorder) SetWriteDeadline(t time.Time) error {
	d.armed = !t.IsZero()
	return nil
}

func (d *deadlineRecorder) Write(p []byte) (int, error) {
	d.writes++
	if !d.armed {
		d.bare++
	}
	return d.ResponseRecorder.Write(p)
}

// Every write of a stream is under a deadline, whatever part of the
// stream it writes (the events a resumed client missed, or the
// protocol's opening frames): a write with none, to a client that
// stopped reading with the connection's buffers full (it sent this
// request behind another), blocks for ever and holds the thread open.
func TestEveryStreamWriteHasADeadline(t *testing.T) {
	e := newEnv(t, weatherScript)
	resp := e.post(context.Background(), runBody("t1", "hi"), nil)
	io.Copy(io.Discard, resp.Body)
	resp.Body.Close()
	failing := NewRunnerHandler(func(context.Context, string) (Runner, error) { return failingRunner{}, nil }, HandlerOptions{})
	defer failing.Close()
	request := func(method, target, body string, header map[string]string) *http.Request {
		var r io.Reader
		if body != "" {
			r = strings.NewReader(body)
		}
		req := httptest.NewRequest(method, target, r)
		req.Host = "localhost"
		req.Header.Set("Content-Type", "application/json")
		for k, v := range header {
			req.Header.Set(k, v)
		}
		return req
	}
	tests := []struct {
		name string
		h    *Handler
		req  *http.Request
		want string
	}{
		{"AG-UI resume", e.h, request("GET", "/?threadId=t1&lastEventId=1", "", nil), "18C"},
		{"NDJSON resume", e.h, request("GET", "/?threadId=t1&lastEventId=1", "", map[string]string{"Accept": "application/x-ndjson"}), "18C"},
		{"thread's messages", e.h, request("GET", "/t1/messages", "", nil), "18C"},
		{"AG-UI run that never started", failing, request("POST", "/", runBody("c1", "hi"), nil), "RUN_ERROR"},
		{"AI SDK run that never started", failing, request("POST", "/?protocol=ai-sdk", chatBody("c1", "hi"), nil), "[DONE]"},
		{"NDJSON run that never started", failing, request("POST", "/", runBody("c1", "hi"), map[string]string{"Accept": "application/x-ndjson"}), "run_faulted"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			w := &deadlineRecorder{ResponseRecorder: httptest.NewRecorder()}
			tt.h.ServeHTTP(w, tt.req)
			if w.Code != http.StatusOK || w.writes == 0 || !strings.Contains(w.Body.String(), tt.want) {
				t.Fatalf("%d after %d writes: %s", w.Code, w.writes, w.Body)
			}
			if w.bare > 0 {
				t.Errorf("%d of %d writes had no deadline", w.bare, w.writes)
			}
		})
	}
}
