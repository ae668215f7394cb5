package wire

import (
	"context"
	"net/http"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
)

// exposed is what a page's script on an allowed other origin may read of
// an answer's headers: the CORS-safelisted ones and those the answer
// exposes.
func exposed(h http.Header) map[string]string {
	got := map[string]string{}
	for _, name := range strings.Split(h.Get("Access-Control-Expose-Headers"), ",") {
		if name = strings.TrimSpace(name); name != "" {
			got[http.CanonicalHeaderKey(name)] = h.Get(name)
		}
	}
	return got
}

// A page on an allowed other origin reads the headers its client acts
// on: when to retry a busy server, how to authenticate, which stream
// protocol it got, which methods a resource takes. The browser hides
// every header an answer does not expose, so a 503's Retry-After, a
// 401's challenge and a 405's Allow were lost to such a page.
func TestCrossOriginAnswersExposeWhatClientsRead(t *testing.T) {
	const origin = "http://app.example"
	gate := make(chan struct{})
	defer close(gate)
	busy := newEnvWith(t, envOptions{scripts: blockingScript(gate), handler: HandlerOptions{AllowedOrigins: []string{origin}, MaxThreads: 1, Token: "s3cret"}})
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	resp := busy.post(ctx, runBody("a", "hi"), map[string]string{"Authorization": "Bearer s3cret"})
	defer resp.Body.Close()
	waitFor(t, func() bool { return busy.agent("a") != nil && busy.agent("a").Snapshot().Phase.InFlight() })
	idle := newEnvWith(t, envOptions{scripts: weatherScript, handler: HandlerOptions{AllowedOrigins: []string{origin}}})

	authorized := map[string]string{"Origin": origin, "Content-Type": "application/json", "Authorization": "Bearer s3cret"}
	anonymous := map[string]string{"Origin": origin, "Content-Type": "application/json"}
	tests := []struct {
		name, method, url, body string
		e                       *env
		header                  map[string]string
		code                    int
		want                    string
	}{
		{"busy server", "POST", "", runBody("b", "hi"), busy, authorized, http.StatusServiceUnavailable, "Retry-After"},
		{"no token", "POST", "", runBody("b", "hi"), busy, anonymous, http.StatusUnauthorized, "Www-Authenticate"},
		{"wrong method", "PUT", "", "", busy, authorized, http.StatusMethodNotAllowed, "Allow"},
		{"AI SDK stream", "POST", "?protocol=ai-sdk", chatBody("c1", "hi"), idle, anonymous, http.StatusOK, "X-Vercel-Ai-Ui-Message-Stream"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			code, body, h := tt.e.do(tt.method, tt.url, tt.body, tt.header)
			if code != tt.code || h.Get(tt.want) == "" {
				t.Fatalf("got %d with %s %q (%s), want %d with it set", code, tt.want, h.Get(tt.want), body, tt.code)
			}
			if diff := cmp.Diff(h.Get(tt.want), exposed(h)[tt.want]); diff != "" {
				t.Errorf("%s as a page reads it mismatch (-want +got):\n%s\nAccess-Control-Expose-Headers: %q", tt.want, diff, h.Get("Access-Control-Expose-Headers"))
			}
		})
	}
}

// A page on an allowed other origin that reads a chained NDJSON stream
// reads its Baton-Chain header, which it resumes the stream with: the
// browser hid it.
func TestCrossOriginNDJSONStreamsExposeTheirChain(t *testing.T) {
	const origin = "http://app.example"
	e := newEnvWith(t, envOptions{scripts: weatherScript, handler: HandlerOptions{AllowedOrigins: []string{origin}}})
	code, body, h := e.do("POST", "", runBody("n1", "hi"), map[string]string{"Origin": origin, "Content-Type": "application/json", "Accept": ndjsonType})
	if code != http.StatusOK {
		t.Fatalf("post: %d\n%s", code, body)
	}
	if _, ok := exposed(h)[chainHeader]; !ok {
		t.Errorf("an NDJSON stream does not expose %s: Access-Control-Expose-Headers: %q", chainHeader, h.Get("Access-Control-Expose-Headers"))
	}
}
