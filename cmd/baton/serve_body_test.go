package main

import (
	"context"
	"io"
	"net"
	"strings"
	"testing"
	"time"

	"github.com/batonrt/baton/provider/scripted"
	"github.com/batonrt/baton/store"
)

// A GET of the chat page that says it carries a body is refused at once
// rather than left waiting, with no deadline, for a body that may never
// come.
func TestServeRefusesAPageRequestWithABody(t *testing.T) {
	isolate(t)
	st, err := store.Open(t.TempDir())
	if err != nil {
		t.Fatal(err)
	}
	addr, stop := serving(t, func(ctx context.Context, a *app, ln net.Listener) error {
		return a.serveOn(ctx, ln, st, scripted.Echo(), "scripted", nil)
	})
	defer stop()
	for _, target := range []string{"/", "/_page/app.js"} {
		conn, err := net.Dial("tcp", strings.TrimPrefix(addr, "http://"))
		if err != nil {
			t.Fatal(err)
		}
		if _, err := io.WriteString(conn, "GET "+target+" HTTP/1.1\r\nHost: localhost\r\nContent-Length: 100\r\n\r\n{"); err != nil {
			t.Fatal(err)
		}
		_ = conn.SetReadDeadline(time.Now().Add(5 * time.Second))
		b, err := io.ReadAll(conn)
		conn.Close()
		if !strings.HasPrefix(string(b), "HTTP/1.1 400") || err != nil {
			t.Errorf("GET %s with a body never sent: %.200q, %v; want 400 and the connection closed", target, b, err)
		}
	}
}
