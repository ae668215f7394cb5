package wire

import (
	"bytes"
	"context"
	"io"
	"log/slog"
	"net/http"
	"net/http/httptest"
	"strings"
	"sync"
	"testing"

	"github.com/batonrt/baton/conductor"
)

// lockedBuffer is a log sink the handler's goroutines may share.
type lockedBuffer struct {
	mu sync.Mutex
	b  bytes.Buffer
}

func (l *lockedBuffer) Write(p []byte) (int, error) {
	l.mu.Lock()
	defer l.mu.Unlock()
	return l.b.Write(p)
}

func (l *lockedBuffer) String() string {
	l.mu.Lock()
	defer l.mu.Unlock()
	return l.b.String()
}

// A factory that returns neither a runner nor an error, or no factory at
// all, is a mistake of the host's: the request is answered 500 and the
// log says what went wrong, instead of a nil runner crashing the server
// on a goroutine of its own.
func TestFactoryWithoutRunnerIsAnError(t *testing.T) {
	for _, tc := range []struct {
		name string
		h    func(HandlerOptions) *Handler
		want string
	}{
		{"nil agent", func(o HandlerOptions) *Handler {
			return NewHandler(func(context.Context, string) (*conductor.Agent, error) { return nil, nil }, o)
		}, `wire: the factory returned neither a runner nor an error for thread \"t1\"`},
		{"nil runner", func(o HandlerOptions) *Handler {
			return NewRunnerHandler(func(context.Context, string) (Runner, error) { return nil, nil }, o)
		}, `wire: the factory returned neither a runner nor an error for thread \"t1\"`},
		{"no agent factory", func(o HandlerOptions) *Handler { return NewHandler(nil, o) }, "wire: the handler has no factory"},
		{"no runner factory", func(o HandlerOptions) *Handler { return NewRunnerHandler(nil, o) }, "wire: the handler has no factory"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			var log lockedBuffer
			h := tc.h(HandlerOptions{Logger: slog.New(slog.NewTextHandler(&log, nil))})
			srv := httptest.NewServer(h)
			defer srv.Close()
			defer h.Close()
			resp, err := http.Post(srv.URL, "application/json", strings.NewReader(runBody("t1", "hi")))
			if err != nil {
				t.Fatal(err)
			}
			body, _ := io.ReadAll(resp.Body)
			resp.Body.Close()
			if resp.StatusCode != http.StatusInternalServerError {
				t.Errorf("status %d (%s), want 500", resp.StatusCode, body)
			}
			if !strings.Contains(log.String(), tc.want) {
				t.Errorf("log %q does not say %q", log.String(), tc.want)
			}
		})
	}
}
