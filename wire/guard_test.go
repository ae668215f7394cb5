package wire

import (
	"context"
	"errors"
	"io"
	"net"
	"net/http"
	"strings"
	"testing"
	"time"

	"github.com/batonrt/baton/conductor"
	"github.com/batonrt/baton/contract"
	"github.com/batonrt/baton/turn"
)

func (e *env) do(method, url, body string, header map[string]string) (int, string, http.Header) {
	e.t.Helper()
	req, err := http.NewRequest(method, e.srv.URL+url, strings.NewReader(body))
	if err != nil {
		e.t.Fatal(err)
	}
	for k, v := range header {
		req.Header.Set(k, v)
	}
	resp, err := http.DefaultClient.Do(req)
	if err != nil {
		e.t.Fatal(err)
	}
	defer resp.Body.Close()
	b, _ := io.ReadAll(resp.Body)
	return resp.StatusCode, string(b), resp.Header
}

// What a page on another site, or a client without the token, may send
// is refused before any run starts; allowed origins get CORS answers.
func TestHandlerRefusesHostileRequests(t *testing.T) {
	json := map[string]string{"Content-Type": "application/json"}
	with := func(extra map[string]string) map[string]string {
		h := map[string]string{"Content-Type": "application/json"}
		for k, v := range extra {
			h[k] = v
		}
		return h
	}
	e := newEnvWith(t, envOptions{scripts: weatherScript, handler: HandlerOptions{AllowedOrigins: []string{"http://app.example"}, MaxBody: 1 << 10}})
	tests := []struct {
		name, method, url, body string
		header                  map[string]string
		code                    int
		msg                     string
	}{
		{"cross-site text/plain POST", "POST", "", runBody("t1", "write files"), map[string]string{"Content-Type": "text/plain", "Origin": "http://evil.example"}, 403, "origin"},
		{"text/plain POST", "POST", "", runBody("t1", "hi"), map[string]string{"Content-Type": "text/plain"}, 415, "application/json"},
		{"cross-site JSON POST", "POST", "", runBody("t1", "hi"), with(map[string]string{"Origin": "http://evil.example"}), 403, "origin"},
		{"rebinding name for loopback", "POST", "", runBody("t1", "hi"), with(map[string]string{"Origin": "http://evil.example"}), 403, "origin"},
		{"thread id over the limit", "POST", "", runBody(strings.Repeat("x", 81), "hi"), json, 400, "at most 80"},
		{"thread id with control characters", "POST", "", runBody("a\u0000b\u001b[2J", "hi"), json, 400, "control character"},
		{"thread id naming a delegate's session", "POST", "", runBody("t1/3.0", "hi"), json, 400, "delegate"},
		{"chat id naming a delegate's session", "POST", "?protocol=ai-sdk", chatBody("t1/3.0/5.1", "hi"), json, 400, "delegate"},
		{"thread id beginning as a cut parent's child's", "POST", "", runBody("~84fe2e03d50dd3a1:tail", "hi"), json, 400, "delegate"},
		{"chat id with control characters", "POST", "?protocol=ai-sdk", chatBody("a\u001b[2J", "hi"), json, 400, "control character"},
		{"body over the limit", "POST", "", runBody("t1", strings.Repeat("x", 2<<10)), json, 413, "over 1024 bytes"},
		{"preflight from elsewhere", "OPTIONS", "", "", map[string]string{"Origin": "http://evil.example", "Access-Control-Request-Method": "POST"}, 403, "origin"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			code, body, _ := e.do(tt.method, tt.url, tt.body, tt.header)
			if code != tt.code || !strings.Contains(body, tt.msg) {
				t.Errorf("got %d %q, want %d containing %q", code, body, tt.code, tt.msg)
			}
		})
	}
	if e.agent("t1") != nil {
		t.Error("a refused request opened the thread")
	}
	code, _, h := e.do("OPTIONS", "", "", map[string]string{"Origin": "http://app.example", "Access-Control-Request-Method": "POST", "Access-Control-Request-Headers": "content-type"})
	if code != http.StatusNoContent || h.Get("Access-Control-Allow-Origin") != "http://app.example" || !strings.Contains(h.Get("Access-Control-Allow-Headers"), "Content-Type") {
		t.Errorf("preflight from an allowed origin: %d %v", code, h)
	}
	code, body, h := e.do("POST", "", runBody("t2", "hi"), with(map[string]string{"Origin": "http://app.example"}))
	if code != http.StatusOK || h.Get("Access-Control-Allow-Origin") != "http://app.example" || !strings.Contains(body, "RUN_FINISHED") {
		t.Errorf("POST from an allowed origin: %d %v", code, h)
	}
}

func TestHandlerRequiresItsToken(t *testing.T) {
	e := newEnvWith(t, envOptions{scripts: weatherScript, handler: HandlerOptions{Token: "s3cret"}})
	json := map[string]string{"Content-Type": "application/json"}
	for _, auth := range []string{"", "Bearer wrong", "s3cret", "Basic s3cret"} {
		json["Authorization"] = auth
		if code, _, h := e.do("POST", "", runBody("t1", "hi"), json); code != http.StatusUnauthorized || h.Get("WWW-Authenticate") == "" {
			t.Errorf("Authorization %q: %d, want 401 with a challenge", auth, code)
		}
	}
	json["Authorization"] = "Bearer s3cret"
	if code, body, _ := e.do("POST", "", runBody("t1", "hi"), json); code != http.StatusOK || !strings.Contains(body, "RUN_FINISHED") {
		t.Errorf("with the token: %d %q", code, body)
	}
}

// A client that sends headers and then nothing is cut off after the body
// timeout rather than holding its connection for ever.
func TestHandlerDropsASilentBody(t *testing.T) {
	e := newEnvWith(t, envOptions{scripts: weatherScript, handler: HandlerOptions{BodyTimeout: 100 * time.Millisecond}})
	conn, err := net.Dial("tcp", e.srv.Listener.Addr().String())
	if err != nil {
		t.Fatal(err)
	}
	defer conn.Close()
	if _, err := io.WriteString(conn, "POST / HTTP/1.1\r\nHost: localhost\r\nContent-Type: application/json\r\nContent-Length: 100\r\n\r\n{"); err != nil {
		t.Fatal(err)
	}
	_ = conn.SetReadDeadline(time.Now().Add(10 * time.Second))
	b, _ := io.ReadAll(conn)
	if !strings.Contains(string(b), "408") {
		t.Errorf("a silent body got %q, want 408", b)
	}
}

// A model failure reaches a web client without the upstream URL or a key
// that its error text held.
func TestErrorsToClientsHoldNoURLsOrKeys(t *testing.T) {
	leak := `Post "https://llm.internal.example/v1/chat?key=sk-live-abcdef123456": connection refused (Authorization: Bearer sk-live-abcdef123456)`
	failing := func() []func(context.Context) ([]turn.Chunk, error) {
		return []func(context.Context) ([]turn.Chunk, error){func(context.Context) ([]turn.Chunk, error) {
			return nil, &turn.ProviderError{Failure: contract.FailNetwork, Message: "openai: request failed", Err: errors.New(leak)}
		}}
	}
	streamsHideTheLeak(t, newEnv(t, failing), "request failed")
}

// streamsHideTheLeak posts a message over AG-UI and the AI SDK and fails
// t unless each stream answers 200 with want in it and shows neither the
// leaked URL's host nor its key.
func streamsHideTheLeak(t *testing.T, e *env, want string) {
	t.Helper()
	json := map[string]string{"Content-Type": "application/json"}
	for _, url := range []string{"", "?protocol=ai-sdk"} {
		body := runBody("t"+url, "hi")
		if url != "" {
			body = chatBody("c1", "hi")
		}
		code, stream, _ := e.do("POST", url, body, json)
		if code != http.StatusOK || !strings.Contains(stream, want) {
			t.Fatalf("%q: %d %s", url, code, stream)
		}
		for _, secret := range []string{"llm.internal.example", "sk-live"} {
			if strings.Contains(stream, secret) {
				t.Errorf("%q: the stream shows %q:\n%s", url, secret, stream)
			}
		}
	}
}

// TestDelegateFailureReachesClientsWithoutURLsOrKeys: a delegate whose
// model call failed with its upstream URL and a key in the error is shown
// to both protocols' clients, as the call's result and as the child's
// events, without them.
func TestDelegateFailureReachesClientsWithoutURLsOrKeys(t *testing.T) {
	leak := `Post "https://llm.internal.example/v1/chat?key=sk-live-abcdef123456": connection refused (Authorization: Bearer sk-live-abcdef123456)`
	scripts := func() []func(context.Context) ([]turn.Chunk, error) {
		return []func(context.Context) ([]turn.Chunk, error){
			reply(
				turn.Chunk{Kind: turn.ChunkToolCallStart, Index: 0, CallID: "call_d", Name: "delegate_helper"},
				turn.Chunk{Kind: turn.ChunkToolCallArgs, Index: 0, Text: `{"task":"x"}`},
				turn.Chunk{Kind: turn.ChunkToolCallEnd, Index: 0},
				turn.Chunk{Kind: turn.ChunkStop, Stop: contract.StopToolUse}),
			func(context.Context) ([]turn.Chunk, error) {
				return nil, &turn.ProviderError{Failure: contract.FailInvalidRequest, Message: "openai: request failed", Err: errors.New(leak)}
			},
			reply(turn.Chunk{Kind: turn.ChunkText, Text: "sorry"}, turn.Chunk{Kind: turn.ChunkStop, Stop: contract.StopEndTurn}),
		}
	}
	e := &env{t: t, agents: map[string]*conductor.Agent{}, scripts: scripts}
	e.cfg = contract.AgentConfig{Model: "m", Delegates: []contract.Delegate{{Name: "helper", Config: contract.AgentConfig{Model: "m"}}}}
	startEnv(e)
	streamsHideTheLeak(t, e, "connection refused")
}
