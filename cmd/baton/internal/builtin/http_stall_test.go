package builtin

import (
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"
	"time"
)

// TestHTTPGetKeepsWhatAStalledBodyGave: a body that starts and then
// stalls (a stream that never ends, slower than the cap) is answered with
// what arrived before the client gave up, marked as cut, rather than
// with the timeout alone.
func TestHTTPGetKeepsWhatAStalledBodyGave(t *testing.T) {
	stop := make(chan struct{})
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		w.Write([]byte("event: first\n"))
		w.(http.Flusher).Flush()
		select {
		case <-r.Context().Done():
		case <-stop:
		}
	}))
	defer srv.Close()
	defer close(stop)
	// The client's timeout must come after the headers and the first
	// event, which on a busy machine can take longer than a short one:
	// a round whose call failed before the body began says nothing, and
	// the timeout doubles until one gets that far.
	for timeout := 300 * time.Millisecond; ; timeout *= 2 {
		client := &http.Client{Timeout: timeout}
		_, tools := open(t, Options{AllowHTTP: true, HTTPClient: client})
		out, err := call(t, tools["http_get"], map[string]string{"url": srv.URL})
		client.CloseIdleConnections()
		if err != nil {
			if timeout > 10*time.Second {
				t.Fatalf("error %v, want the start of the body", err)
			}
			continue
		}
		if !strings.Contains(out.Content, "event: first") || !strings.Contains(out.Content, "stopped reading") || !out.Truncated {
			t.Errorf("outcome %+v, want the body so far, a note why it stops, and Truncated", out)
		}
		return
	}
}
