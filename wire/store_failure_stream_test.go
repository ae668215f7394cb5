package wire

import (
	"errors"
	"io"
	"net/http"
	"strings"
	"sync/atomic"
	"testing"
	"time"

	"github.com/batonrt/baton/contract"
	"github.com/batonrt/baton/store"
)

// TestAStreamEndedByTheStoresFailureSaysSo: a run that ends because the
// store refused its records publishes no end of its own; the stream
// following it ends with the protocol's error (AG-UI's RUN_ERROR, the AI
// SDK's error chunk, an NDJSON run_faulted event), addresses and keys
// redacted, so that a client tells the failure from a normal end. The
// stream closed with nothing.
func TestAStreamEndedByTheStoresFailureSaysSo(t *testing.T) {
	cases := []struct {
		name, query, accept string
		body                func(thread string) string
		want                string
	}{
		{"ag-ui", "", "", func(id string) string {
			return aguiBody(id, []map[string]any{{"id": "m1", "role": "user", "content": "one"}})
		}, `"type":"RUN_ERROR"`},
		{"ai-sdk", "?protocol=ai-sdk", "", func(id string) string { return chatBody(id, "one") }, `"type":"error"`},
		{"ndjson", "", "application/x-ndjson", func(id string) string {
			return aguiBody(id, []map[string]any{{"id": "m1", "role": "user", "content": "one"}})
		}, `"run_faulted"`},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			body, _ := streamThroughStoreFailure(t, tc.query, tc.accept, tc.body("t1"))
			if !strings.Contains(body, tc.want) {
				t.Errorf("the stream ended without %s:\n%s", tc.want, body)
			}
			if strings.Contains(body, "s3cret") || strings.Contains(body, "db.internal") {
				t.Errorf("the stream's error is not redacted:\n%s", body)
			}
		})
	}
}

// streamThroughStoreFailure posts body to a handler whose store fails
// once the run waits on its model (the error names a URL with a
// credential), and returns the stream's body once it ended, and the
// handler.
func streamThroughStoreFailure(t *testing.T, query, accept, reqBody string) (string, *Handler) {
	t.Helper()
	var broken atomic.Bool
	release := make(chan struct{})
	h, srv := breakableServer(t, breakableStore{store.NewMemory(), &broken, errors.New(`store: Post "https://db.internal/append?token=s3cret": connection refused`)}, release)
	streamed := make(chan string, 1)
	go func() {
		req, _ := http.NewRequest(http.MethodPost, srv.URL+query, strings.NewReader(reqBody))
		req.Header.Set("Content-Type", "application/json")
		if accept != "" {
			req.Header.Set("Accept", accept)
		}
		resp, err := http.DefaultClient.Do(req)
		if err != nil {
			t.Error(err)
			streamed <- ""
			return
		}
		defer resp.Body.Close()
		b, _ := io.ReadAll(resp.Body)
		streamed <- string(b)
	}()
	for deadline := time.Now().Add(10 * time.Second); ; time.Sleep(time.Millisecond) {
		if p, ok := threadPhase(h, "t1"); ok && p == contract.PhaseAwaitingModel {
			break
		}
		if time.Now().After(deadline) {
			t.Fatal("the run never called its model")
		}
	}
	broken.Store(true)
	close(release)
	select {
	case body := <-streamed:
		return body, h
	case <-time.After(10 * time.Second):
		t.Fatal("the stream is still open after the run ended with the store's failure")
	}
	return "", h
}
