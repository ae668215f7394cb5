package wire

import (
	"bytes"
	"context"
	"errors"
	"io"
	"log/slog"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"

	"github.com/batonrt/baton/conductor"
	"github.com/batonrt/baton/contract"
)

// storeLeak is the text of a store failure that names what a client
// must not see: a file path and a URL with credentials.
const storeLeak = `store: read /var/lib/baton/sessions/t1.jsonl: postgres://baton:hunter2@db.internal:5432/baton refused`

// brokenStoreRunner has a run waiting for a person and a store whose
// reads fail.
type brokenStoreRunner struct{ failingRunner }

func (brokenStoreRunner) EventsSince(context.Context, uint64) ([]contract.RunEvent, error) {
	return nil, errors.New(storeLeak)
}

func (brokenStoreRunner) Snapshot() contract.RunSnapshot {
	return contract.RunSnapshot{Phase: contract.PhaseAwaitingHuman, RunID: "r1", Seq: 3}
}

func (brokenStoreRunner) Answer(context.Context, string, string) error              { return nil }
func (brokenStoreRunner) Approve(context.Context, string, conductor.Decision) error { return nil }

// A failure of the server's own (its store, opening a thread's runner)
// answers 500 without the failure's text, which may name files, hosts
// and credentials; the text goes to the handler's log.
func TestServerFailuresHideTheirDetail(t *testing.T) {
	var log bytes.Buffer
	opts := HandlerOptions{Logger: slog.New(slog.NewTextHandler(&log, nil))}
	broken := NewRunnerHandler(func(context.Context, string) (Runner, error) { return brokenStoreRunner{}, nil }, opts)
	defer broken.Close()
	unopened := NewRunnerHandler(func(context.Context, string) (Runner, error) { return nil, errors.New(storeLeak) }, opts)
	defer unopened.Close()
	answer := aguiBody("t1", []map[string]any{{"id": "a1", "role": "tool", "toolCallId": "call_1", "content": "yes"}})
	tests := []struct {
		name         string
		h            *Handler
		method, path string
		body         string
	}{
		{"AG-UI resume", broken, "GET", "/?threadId=t1&lastEventId=1", ""},
		{"AG-UI answer", broken, "POST", "/", answer},
		{"AI SDK resume", broken, "GET", "/api/chat/t1/stream?protocol=ai-sdk", ""},
		{"AG-UI run on a thread that does not open", unopened, "POST", "/", runBody("t1", "hi")},
		{"AI SDK run on a thread that does not open", unopened, "POST", "/?protocol=ai-sdk", chatBody("t1", "hi")},
		{"AI SDK resume of a thread that does not open", unopened, "GET", "/api/chat/t1/stream?protocol=ai-sdk", ""},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			log.Reset()
			var body io.Reader
			if tt.body != "" {
				body = strings.NewReader(tt.body)
			}
			req := httptest.NewRequest(tt.method, tt.path, body)
			req.Host = "localhost"
			req.Header.Set("Content-Type", "application/json")
			w := httptest.NewRecorder()
			tt.h.ServeHTTP(w, req)
			if w.Code != http.StatusInternalServerError || !strings.Contains(w.Body.String(), `"t1"`) {
				t.Fatalf("%d %q, want 500 naming the thread", w.Code, w.Body)
			}
			for _, secret := range []string{"/var/lib/baton", "hunter2", "db.internal"} {
				if strings.Contains(w.Body.String(), secret) {
					t.Errorf("the response shows %q: %q", secret, w.Body)
				}
			}
			if !strings.Contains(log.String(), "hunter2@db.internal") {
				t.Errorf("the log lacks the failure: %q", log.String())
			}
		})
	}
}
