package wire

import (
	"io"
	"net"
	"net/http"
	"strings"
	"testing"
	"time"
)

// Without a token a handler trusts its loopback listener; a request whose
// Host names another machine comes from a page whose name was pointed at
// 127.0.0.1 (DNS rebinding). Browsers send no Origin with a same-origin
// GET, so the Origin check does not see it: the Host must be refused, or
// that page reads a thread's whole conversation.
func TestHandlerWithoutTokenRefusesARebindingHost(t *testing.T) {
	e := newEnv(t, weatherScript)
	code, body, _ := e.do("POST", "", runBody("t1", "weather?"), map[string]string{"Content-Type": "application/json"})
	if code != http.StatusOK || !strings.Contains(body, "RUN_FINISHED") {
		t.Fatalf("run: %d %s", code, body)
	}
	_, port, _ := strings.Cut(e.srv.Listener.Addr().String(), ":")
	for _, url := range []string{"/?threadId=t1&lastEventId=0", "/t1/stream?protocol=ai-sdk"} {
		req, err := http.NewRequest("GET", e.srv.URL+url, nil)
		if err != nil {
			t.Fatal(err)
		}
		req.Host = "rebind.attacker.example:" + port
		resp, err := http.DefaultClient.Do(req)
		if err != nil {
			t.Fatal(err)
		}
		b, _ := io.ReadAll(resp.Body)
		resp.Body.Close()
		if resp.StatusCode < 400 {
			t.Errorf("GET %s with Host %s: %d, want it refused; body:\n%.300s", url, req.Host, resp.StatusCode, b)
		}
	}
}

// A client refused before its body is read (here: no token) is answered
// and let go at once, not held while the server waits for a body it
// will never use; else anyone can hold a token-guarded server's
// connections open without the token.
func TestHandlerLetsGoARefusedSilentBody(t *testing.T) {
	e := newEnvWith(t, envOptions{scripts: weatherScript, handler: HandlerOptions{Token: "s3cret", BodyTimeout: 100 * time.Millisecond}})
	conn, err := net.Dial("tcp", e.srv.Listener.Addr().String())
	if err != nil {
		t.Fatal(err)
	}
	defer conn.Close()
	if _, err := io.WriteString(conn, "POST / HTTP/1.1\r\nHost: localhost\r\nContent-Type: application/json\r\nContent-Length: 100\r\n\r\n{"); err != nil {
		t.Fatal(err)
	}
	_ = conn.SetReadDeadline(time.Now().Add(3 * time.Second))
	b, err := io.ReadAll(conn)
	if !strings.Contains(string(b), "401") || err != nil {
		t.Errorf("a refused request with a silent body got %q, %v; want 401 and the connection closed within 3s", b, err)
	}
}
