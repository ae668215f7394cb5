package main

import (
	"encoding/json"
	"fmt"
	"net/http"
	"net/http/httptest"
	"strings"
	"sync/atomic"
	"testing"
)

// silentOpenAI is an OpenAI-compatible server on loopback that takes each
// chat completion and never sends its first chunk: with headers, it
// answers 200 as an event stream and then says nothing; without, it does
// not even answer. It counts the streaming and the plain requests it took.
func silentOpenAI(t *testing.T, headers bool) (srv *httptest.Server, streamed, plain *atomic.Int32) {
	t.Helper()
	streamed, plain = new(atomic.Int32), new(atomic.Int32)
	release := make(chan struct{})
	srv = httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		var body struct {
			Stream bool `json:"stream"`
		}
		_ = json.NewDecoder(r.Body).Decode(&body)
		if body.Stream {
			streamed.Add(1)
		} else {
			plain.Add(1)
		}
		if headers {
			w.Header().Set("Content-Type", "text/event-stream")
			w.WriteHeader(http.StatusOK)
			w.(http.Flusher).Flush()
		}
		select {
		case <-r.Context().Done():
		case <-release:
		}
	}))
	// Cleanups run last first: the handlers are released, then the
	// server closed.
	t.Cleanup(srv.Close)
	t.Cleanup(func() { close(release) })
	return srv, streamed, plain
}

// TestServeFirstChunkTimeout: `baton serve --first-chunk-timeout` against
// a real OpenAI-compatible server that never sends a first chunk (before
// or after its headers): each attempt is given up after the timeout, the
// model is streamed --retries more times and no more, with one plain
// request (the fallback without streaming, bounded by the same timeout),
// and the client's stream ends with a run error that says it timed out,
// without the server's address.
func TestServeFirstChunkTimeout(t *testing.T) {
	skipShort(t, "spawns processes")
	for _, headers := range []bool{false, true} {
		t.Run(fmt.Sprintf("headers=%v", headers), func(t *testing.T) {
			isolate(t)
			model, streamed, plain := silentOpenAI(t, headers)
			t.Setenv("OPENAI_API_KEY", "sk-silent-0123456789")
			node := startNode(t, "--store", t.TempDir(), "--provider", "openai", "--base-url", model.URL+"/v1", "--model", "m",
				"--workspace", t.TempDir(), "--first-chunk-timeout", "150ms", "--retries", "2")
			code, body := node.post(t, "silent", "m1", "hello")
			if !strings.Contains(body, "first chunk within 150ms") {
				t.Errorf("the stream does not say no first chunk came within the timeout:\n%s", body)
			}
			if code != http.StatusOK || !strings.Contains(body, `"RUN_ERROR"`) {
				t.Fatalf("stream (%d) does not end with a run error:\n%s", code, body)
			}
			_, runError, _ := strings.Cut(body, `"RUN_ERROR"`)
			if !strings.Contains(runError, "timeout") {
				t.Errorf("the run error does not say it timed out:\n%s", runError)
			}
			if n := strings.Count(body, `"baton.model_retry"`); n != 3 {
				t.Errorf("%d retries streamed, want 3 (the fallback and --retries 2):\n%s", n, body)
			}
			// The attempts are counted in the stream above; the server
			// sees no more of them (an attempt the timeout gives up before
			// its request arrives, on a loaded machine, it does not see).
			if s, p := streamed.Load(), plain.Load(); s == 0 || s > 3 || p > 1 {
				t.Errorf("the server took %d streaming requests and %d plain ones, want at most 3 (one and --retries 2) and 1", s, p)
			}
			host := strings.TrimPrefix(model.URL, "http://")
			if strings.Contains(body, host) || strings.Contains(body, "sk-silent") {
				t.Errorf("the stream names the model's address or key:\n%s", body)
			}
		})
	}
}
