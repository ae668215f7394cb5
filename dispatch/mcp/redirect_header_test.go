package mcp_test

import (
	"context"
	"net/http"
	"net/http/httptest"
	"strings"
	"sync"
	"testing"
	"time"

	sdk "github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/batonrt/baton/dispatch/mcp"
)

// TestHeadersStayWithTheirHost: Server.Header holds credentials for the
// server's host. A server that redirects to another host (a moved
// endpoint, a compromised or misconfigured proxy) must not be handed
// them there: Go's client drops Authorization on a redirect to another
// domain, and the headers the source adds must not put it back.
func TestHeadersStayWithTheirHost(t *testing.T) {
	server := sdk.NewServer(&sdk.Implementation{Name: "elsewhere"}, nil)
	handler := sdk.NewStreamableHTTPHandler(func(*http.Request) *sdk.Server { return server }, nil)
	var mu sync.Mutex
	var leaked []string
	other := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if v := r.Header.Get("Authorization"); v != "" {
			mu.Lock()
			leaked = append(leaked, r.Method+" "+v)
			mu.Unlock()
		}
		handler.ServeHTTP(w, r)
	}))
	defer other.Close()
	// The same server, named by another host: localhost, not 127.0.0.1.
	elsewhere := strings.Replace(other.URL, "127.0.0.1", "localhost", 1)
	first := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		http.Redirect(w, r, elsewhere+r.URL.Path, http.StatusTemporaryRedirect)
	}))
	defer first.Close()
	ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
	defer cancel()
	src, err := mcp.Connect(ctx, mcp.Server{Name: "moved", URL: first.URL, Header: http.Header{"Authorization": {"Bearer s3cret"}}})
	if err == nil {
		src.Tools(ctx)
		src.Close()
	}
	mu.Lock()
	defer mu.Unlock()
	if len(leaked) > 0 {
		t.Errorf("the credentials reached another host after a redirect: %v", leaked)
	}
}
