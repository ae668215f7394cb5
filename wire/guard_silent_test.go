package wire

import (
	"io"
	"net"
	"strings"
	"testing"
	"time"
)

// A POST refused before its body is read (its path names no thread it
// may act on) is answered and let go at once, as every refusal is, not
// held while the server waits, with no deadline, for a body the client
// may never send.
func TestPostsRefusedByTheirPathLetGoASilentBody(t *testing.T) {
	e := newEnvWith(t, envOptions{scripts: weatherScript, handler: HandlerOptions{BodyTimeout: 100 * time.Millisecond}})
	for _, path := range []string{"/t%01/abort", "/t%01/steer", "//abort", "//steer", "/t%zz/abort"} {
		t.Run(path, func(t *testing.T) {
			conn, err := net.Dial("tcp", e.srv.Listener.Addr().String())
			if err != nil {
				t.Fatal(err)
			}
			defer conn.Close()
			if _, err := io.WriteString(conn, "POST "+path+" HTTP/1.1\r\nHost: localhost\r\nContent-Type: application/json\r\nContent-Length: 100\r\n\r\n{"); err != nil {
				t.Fatal(err)
			}
			_ = conn.SetReadDeadline(time.Now().Add(3 * time.Second))
			b, err := io.ReadAll(conn)
			if !strings.HasPrefix(string(b), "HTTP/1.1 400") || err != nil {
				t.Errorf("got %q, %v; want 400 and the connection closed within 3s", b, err)
			}
		})
	}
}
