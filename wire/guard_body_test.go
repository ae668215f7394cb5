package wire

import (
	"io"
	"net"
	"strings"
	"testing"
	"time"
)

// A request the handler reads no body of (a GET, a preflight) that says
// it carries one is refused at once. Else the server, before it writes
// the answer's headers, waits with no deadline for that body, which a
// client may never send: the connection and, for a thread's GET, the
// thread itself are held for ever, and enough such requests fill
// MaxThreads.
func TestHandlerRefusesABodyItWouldNotRead(t *testing.T) {
	e := newEnv(t, weatherScript)
	tests := []struct{ name, head string }{
		{"AG-UI resume", "GET /?threadId=t1&lastEventId=1 HTTP/1.1\r\nContent-Length: 100\r\n"},
		{"AI SDK resume", "GET /t1/stream?protocol=ai-sdk HTTP/1.1\r\nContent-Length: 100\r\n"},
		{"chunked resume", "GET /?threadId=t1&lastEventId=1 HTTP/1.1\r\nTransfer-Encoding: chunked\r\n"},
		{"preflight", "OPTIONS / HTTP/1.1\r\nOrigin: http://localhost\r\nAccess-Control-Request-Method: POST\r\nContent-Length: 100\r\n"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			conn, err := net.Dial("tcp", e.srv.Listener.Addr().String())
			if err != nil {
				t.Fatal(err)
			}
			defer conn.Close()
			if _, err := io.WriteString(conn, tt.head+"Host: localhost\r\n\r\n{"); err != nil {
				t.Fatal(err)
			}
			_ = conn.SetReadDeadline(time.Now().Add(5 * time.Second))
			b, err := io.ReadAll(conn)
			if !strings.HasPrefix(string(b), "HTTP/1.1 400") || err != nil {
				t.Errorf("got %q, %v; want 400 and the connection closed", b, err)
			}
		})
	}
	if e.users("t1") != 0 || e.agent("t1") != nil {
		t.Error("a refused request opened the thread")
	}
}
