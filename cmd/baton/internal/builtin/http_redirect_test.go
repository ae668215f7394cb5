package builtin

import (
	"context"
	"encoding/json"
	"net/http"
	"net/http/httptest"
	"strings"
	"sync/atomic"
	"testing"
	"time"
)

// An http_get call is approved by its URL's host (httpKeys), so a host
// allowed for the session must not lead the tool to another host: a
// redirect from the approved host to one nobody approved (loopback here,
// 169.254.169.254 in the cloud) is not followed.
func TestHTTPGetRedirectStaysOnTheApprovedHost(t *testing.T) {
	var hit atomic.Int32
	internal := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		hit.Add(1)
		w.Write([]byte("internal-secret"))
	}))
	defer internal.Close()
	approved := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		http.Redirect(w, r, internal.URL+"/latest/meta-data/", http.StatusFound)
	}))
	defer approved.Close()
	client := &http.Client{Timeout: 5 * time.Second}
	defer client.CloseIdleConnections()
	_, tools := open(t, Options{AllowHTTP: true, HTTPClient: client})

	args, _ := json.Marshal(map[string]string{"url": approved.URL + "/"})
	keys, err := httpKeys(args)
	if err != nil {
		t.Fatal(err)
	}
	out, err := tools["http_get"].Call(context.Background(), args)
	if err != nil {
		t.Fatal(err)
	}
	if hit.Load() != 0 || strings.Contains(out.Content, "internal-secret") {
		t.Errorf("a call approved for %v reached %s through a redirect:\n%s", keys, internal.Listener.Addr(), out.Content)
	}
}
