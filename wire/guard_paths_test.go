package wire

import (
	"context"
	"errors"
	"net/http"
	"strings"
	"testing"

	"github.com/batonrt/baton/store"
)

// The routes that take their thread from the path (abort, steer,
// messages, the AI SDK's resume) refuse what the body's thread ids are
// refused for, read escaped, and a request of the wrong content type,
// with a 4xx that says why; none of them opens a thread.
func TestPathRoutesRefuseHostileThreadIDs(t *testing.T) {
	e := newEnvWith(t, envOptions{scripts: weatherScript})
	json := map[string]string{"Content-Type": "application/json"}
	tests := []struct {
		name, method, url, body string
		header                  map[string]string
		code                    int
		msg                     string
	}{
		{"abort of a delegate's session", "POST", "/t1%2F3.0/abort", `{}`, json, 400, "delegate"},
		{"steer of a delegate's session", "POST", "/t1%2F3.0/steer", `{"text":"hi"}`, json, 400, "delegate"},
		{"messages of a delegate's session", "GET", "/t1%2F3.0/messages", "", nil, 400, "delegate"},
		{"resume of a delegate's session", "GET", "/t1%2F3.0/stream?protocol=ai-sdk", "", nil, 400, "delegate"},
		{"abort with a control character", "POST", "/a%1B%5B2J/abort", `{}`, json, 400, "control character"},
		{"steer with a control character", "POST", "/a%00b/steer", `{"text":"hi"}`, json, 400, "control character"},
		{"messages with a control character", "GET", "/a%00b/messages", "", nil, 400, "control character"},
		{"resume with a control character", "GET", "/a%00b/stream?protocol=ai-sdk", "", nil, 400, "control character"},
		{"messages with an invisible character", "GET", "/a%E2%80%AEb/messages", "", nil, 400, "invisible"},
		{"messages with no id", "GET", "//messages", "", nil, 400, "bad thread id"},
		{"messages with an id over the limit", "GET", "/" + strings.Repeat("x", 81) + "/messages", "", nil, 400, "at most 80"},
		{"abort with an id not UTF-8", "POST", "/a%FFb/abort", `{}`, json, 400, "UTF-8"},
		{"abort as text/plain", "POST", "/t1/abort", `{}`, map[string]string{"Content-Type": "text/plain"}, 415, "application/json"},
		{"steer as a form", "POST", "/t1/steer", `text=hi`, map[string]string{"Content-Type": "application/x-www-form-urlencoded"}, 415, "application/json"},
		{"steer with no content type", "POST", "/t1/steer", `{"text":"hi"}`, nil, 415, "application/json"},
		{"steer with no text", "POST", "/t1/steer", `{"text":"  "}`, json, 400, "empty"},
		{"steer with text of the wrong type", "POST", "/t1/steer", `{"text":7}`, json, 400, "steer body"},
		{"abort with an unknown mode", "POST", "/t1/abort", `{"mode":"later"}`, json, 400, "abort mode"},
		{"unknown protocol", "POST", "?protocol=grpc", runBody("t1", "hi"), json, 400, "protocol"},
		{"cursor over the limit", "GET", "?threadId=t1&lastEventId=" + strings.Repeat("1", 201), "", nil, 400, "Last-Event-ID"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			code, body, _ := e.do(tt.method, tt.url, tt.body, tt.header)
			if code != tt.code || !strings.Contains(body, tt.msg) {
				t.Errorf("got %d %q, want %d containing %q", code, body, tt.code, tt.msg)
			}
		})
	}
	e.h.mu.Lock()
	defer e.h.mu.Unlock()
	if n := len(e.h.threads); n != 0 {
		t.Errorf("%d threads opened by refused requests", n)
	}
}

// A thread the factory does not know is answered 404 on every route that
// names it, but the AI SDK's resume request, whose client reads 204 as
// nothing to resume; none of them keeps it open. A thread id that reads
// as a path is only a name: resuming it finds no events, and nothing is
// stored under it.
func TestPathRoutesAnswerUnknownThreads(t *testing.T) {
	st := store.NewMemory()
	e := newEnvWith(t, envOptions{scripts: weatherScript, store: st})
	json := map[string]string{"Content-Type": "application/json"}
	tests := []struct {
		name, method, url, body string
		header                  map[string]string
		code                    int
	}{
		{"abort", "POST", "/forbidden-1/abort", `{}`, json, http.StatusNotFound},
		{"steer", "POST", "/forbidden-1/steer", `{"text":"hi"}`, json, http.StatusNotFound},
		{"messages", "GET", "/forbidden-1/messages", "", nil, http.StatusNotFound},
		{"AI SDK resume", "GET", "/forbidden-1/stream?protocol=ai-sdk", "", nil, http.StatusNoContent},
		{"AI SDK chat", "POST", "?protocol=ai-sdk", chatBody("forbidden-1", "hi"), json, http.StatusNotFound},
		{"AG-UI resume", "GET", "?threadId=forbidden-1&lastEventId=1", "", nil, http.StatusNotFound},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			if code, body, _ := e.do(tt.method, tt.url, tt.body, tt.header); code != tt.code {
				t.Errorf("got %d %q, want %d", code, body, tt.code)
			}
		})
	}
	e.h.mu.Lock()
	n := len(e.h.threads)
	e.h.mu.Unlock()
	if n != 0 {
		t.Errorf("%d threads kept open by requests for unknown threads", n)
	}
	for _, url := range []string{"?threadId=..%2F..%2Fetc&lastEventId=1", "/..%2F..%2Fetc/stream?protocol=ai-sdk"} {
		if code, body, _ := e.do("GET", url, "", nil); code != http.StatusNotFound && code != http.StatusNoContent {
			t.Errorf("GET %s: %d %q, want 404 or 204", url, code, body)
		}
	}
	if _, err := st.Head(context.Background(), "../../etc"); !errors.Is(err, store.ErrNotFound) {
		t.Errorf("a path-like thread id's session after reads: %v, want %v", err, store.ErrNotFound)
	}
}
