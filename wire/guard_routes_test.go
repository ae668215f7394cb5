package wire

import (
	"net/http"
	"strings"
	"testing"
)

// routes are every kind of request a handler serves, each as a client
// would send it for the thread t1.
var routes = []struct {
	name, method, url, body string
	header                  map[string]string
}{
	{"AG-UI run", "POST", "", runBody("t1", "hi"), nil},
	{"AG-UI resume by POST", "POST", "", runBody("t1", "hi"), map[string]string{"Last-Event-ID": "1"}},
	{"AG-UI resume by GET", "GET", "?threadId=t1&lastEventId=1", "", nil},
	{"AI SDK chat", "POST", "?protocol=ai-sdk", `{"id":"t1","messages":[{"id":"u1","role":"user","parts":[{"type":"text","text":"hi"}]}]}`, nil},
	{"AI SDK resume", "GET", "/t1/stream?protocol=ai-sdk", "", nil},
	{"abort", "POST", "/t1/abort", `{}`, nil},
	{"steer", "POST", "/t1/steer", `{"text":"hi"}`, nil},
	{"messages", "GET", "/t1/messages", "", nil},
}

// Every route of a handler with a token asks for it, the reconnects and
// the reads of a thread's messages as much as the posts that start runs;
// only a preflight, which browsers send without credentials, is answered
// without it, and then only for an allowed origin.
func TestEveryRouteRequiresTheToken(t *testing.T) {
	e := newEnvWith(t, envOptions{scripts: weatherScript, handler: HandlerOptions{Token: "s3cret", AllowedOrigins: []string{"https://app.example"}}})
	for _, rt := range routes {
		t.Run(rt.name, func(t *testing.T) {
			for _, auth := range []string{"", "Bearer wrong"} {
				header := map[string]string{"Content-Type": "application/json", "Authorization": auth}
				for k, v := range rt.header {
					header[k] = v
				}
				if code, _, h := e.do(rt.method, rt.url, rt.body, header); code != http.StatusUnauthorized || h.Get("WWW-Authenticate") == "" {
					t.Errorf("Authorization %q: %d, want 401 with a challenge", auth, code)
				}
			}
			for origin, want := range map[string]int{"https://app.example": http.StatusNoContent, "https://evil.example": http.StatusForbidden} {
				code, _, h := e.do("OPTIONS", rt.url, "", map[string]string{"Origin": origin, "Access-Control-Request-Method": rt.method})
				if code != want {
					t.Errorf("preflight from %s: %d, want %d", origin, code, want)
				}
				if want == http.StatusForbidden && h.Get("Access-Control-Allow-Origin") != "" {
					t.Errorf("preflight from %s is allowed its origin: %v", origin, h)
				}
			}
		})
	}
}

// Every route that reads a body refuses one over MaxBody with 413 and one
// that is not the JSON it expects with 400, and none of them starts a
// run or opens the thread for it.
func TestEveryRouteRefusesOversizedAndMalformedBodies(t *testing.T) {
	e := newEnvWith(t, envOptions{scripts: weatherScript, handler: HandlerOptions{MaxBody: 256}})
	for _, rt := range routes {
		if rt.method != "POST" {
			continue
		}
		t.Run(rt.name, func(t *testing.T) {
			header := map[string]string{"Content-Type": "application/json"}
			for k, v := range rt.header {
				header[k] = v
			}
			big := rt.body[:len(rt.body)-1] + strings.Repeat(" ", 300) + rt.body[len(rt.body)-1:]
			if code, body, _ := e.do("POST", rt.url, big, header); code != http.StatusRequestEntityTooLarge {
				t.Errorf("a body over MaxBody: %d %q, want 413", code, body)
			}
			for _, bad := range []string{`{`, `[]`, `"x"`, "\xff", `{"x":1}{`} {
				if code, body, _ := e.do("POST", rt.url, bad, header); code != http.StatusBadRequest {
					t.Errorf("body %q: %d %q, want 400", bad, code, body)
				}
			}
		})
	}
	e.h.mu.Lock()
	defer e.h.mu.Unlock()
	if n := len(e.h.threads); n != 0 {
		t.Errorf("%d threads opened by refused requests", n)
	}
}
