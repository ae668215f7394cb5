package wire

import (
	"context"
	"errors"
	"io"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
)

// answer is what a client reads of a refusal.
type answer struct {
	Code       int
	RetryAfter bool
	Body       string
}

func get(t *testing.T, url string) answer {
	t.Helper()
	resp, err := http.Get(url)
	if err != nil {
		t.Fatal(err)
	}
	defer resp.Body.Close()
	b, _ := io.ReadAll(resp.Body)
	return answer{resp.StatusCode, resp.Header.Get("Retry-After") != "", strings.TrimSpace(string(b))}
}

// A server whose live threads are all busy says so, and when to try
// again, to every request for a new thread: the AI SDK's resume request
// included, which used to get 204, "no run to resume", so that a page
// reloaded mid-run showed no run and no error.
func TestBusyServerSaysSoAndWhenToRetry(t *testing.T) {
	gate := make(chan struct{})
	defer close(gate)
	e := newEnvWith(t, envOptions{scripts: blockingScript(gate), handler: HandlerOptions{MaxThreads: 1}})
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	resp := e.post(ctx, runBody("a", "hi"), nil)
	defer resp.Body.Close()
	waitFor(t, func() bool { return e.agent("a") != nil && e.agent("a").Snapshot().Phase.InFlight() })
	busy := answer{http.StatusServiceUnavailable, true, errBusy.Error()}
	for _, url := range []string{"/b/stream?protocol=ai-sdk", "?threadId=b&lastEventId=1"} {
		if diff := cmp.Diff(busy, get(t, e.srv.URL+url)); diff != "" {
			t.Errorf("GET %s mismatch (-want +got):\n%s", url, diff)
		}
	}
	code, body, h := e.do("POST", "", runBody("b", "hi"), map[string]string{"Content-Type": "application/json"})
	if diff := cmp.Diff(busy, answer{code, h.Get("Retry-After") != "", strings.TrimSpace(body)}); diff != "" {
		t.Errorf("POST mismatch (-want +got):\n%s", diff)
	}
}

// The AI SDK's resume request for a thread that cannot be opened (its
// store fails) is answered with 500, not with 204, which says
// there is no run to resume; an unknown thread still gets 204.
func TestAISDKResumeReportsAThreadThatFailsToOpen(t *testing.T) {
	h := NewRunnerHandler(func(ctx context.Context, id string) (Runner, error) {
		if id == "unknown" {
			return nil, ErrUnknownThread
		}
		return nil, errors.New("store: connection refused")
	}, HandlerOptions{})
	srv := httptest.NewServer(h)
	defer func() { srv.Close(); h.Close() }()
	tests := []struct {
		id   string
		want answer
	}{
		{"unknown", answer{http.StatusNoContent, false, ""}},
		{"broken", answer{http.StatusInternalServerError, false, `wire: thread "broken" could not be opened`}},
	}
	for _, tt := range tests {
		if diff := cmp.Diff(tt.want, get(t, srv.URL+"/"+tt.id+"/stream?protocol=ai-sdk")); diff != "" {
			t.Errorf("%s mismatch (-want +got):\n%s", tt.id, diff)
		}
	}
}
