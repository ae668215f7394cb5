package mcp_test

import (
	"context"
	"net"
	"net/http"
	"net/http/httptest"
	"slices"
	"strings"
	"sync/atomic"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"
	sdk "github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/batonrt/baton/dispatch"
	"github.com/batonrt/baton/dispatch/mcp"
)

// httpRun is one run of an MCP server over streamable HTTP, as a
// process that is stopped and started again would be: each run has its
// own SDK server, so its session ids are its own.
type httpRun struct {
	server *sdk.Server
	ts     *httptest.Server
	inits  atomic.Int32  // the initialize requests this run answered
	lists  atomic.Int32  // the tools/list requests this run answered
	down   chan struct{} // closed by stop
}

// startHTTPRun serves a new server offering tools (each answers with its
// name and the run's number) at addr, or at a free loopback port when
// addr is "". holdStreams keeps each GET for a server-sent stream
// unanswered until the run stops, so that only a call can find a session
// gone, not the SDK reopening its stream.
func startHTTPRun(t *testing.T, addr string, run int, holdStreams bool, tools ...string) *httpRun {
	t.Helper()
	r := &httpRun{server: sdk.NewServer(&sdk.Implementation{Name: "restarts"}, nil), down: make(chan struct{})}
	for _, name := range tools {
		text := name + " from run " + string(rune('0'+run))
		sdk.AddTool(r.server, &sdk.Tool{Name: name}, func(context.Context, *sdk.CallToolRequest, struct{}) (*sdk.CallToolResult, struct{}, error) {
			return &sdk.CallToolResult{Content: []sdk.Content{&sdk.TextContent{Text: text}}}, struct{}{}, nil
		})
	}
	r.server.AddReceivingMiddleware(func(next sdk.MethodHandler) sdk.MethodHandler {
		return func(ctx context.Context, method string, req sdk.Request) (sdk.Result, error) {
			switch method {
			case "initialize":
				r.inits.Add(1)
			case "tools/list":
				r.lists.Add(1)
			}
			return next(ctx, method, req)
		}
	})
	handler := sdk.NewStreamableHTTPHandler(func(*http.Request) *sdk.Server { return r.server }, nil)
	r.ts = httptest.NewUnstartedServer(http.HandlerFunc(func(w http.ResponseWriter, req *http.Request) {
		if holdStreams && req.Method == http.MethodGet {
			select {
			case <-r.down:
			case <-req.Context().Done():
			}
			http.Error(w, "stopping", http.StatusServiceUnavailable)
			return
		}
		handler.ServeHTTP(w, req)
	}))
	if addr != "" {
		r.ts.Listener.Close()
		l, err := net.Listen("tcp", addr)
		if err != nil {
			t.Fatal(err)
		}
		r.ts.Listener = l
	}
	r.ts.Start()
	t.Cleanup(r.stop)
	return r
}

// stop ends the run as a process exit would: its sessions and
// connections end and nothing listens at its address.
func (r *httpRun) stop() {
	select {
	case <-r.down:
		return
	default:
		close(r.down)
	}
	for ss := range r.server.Sessions() {
		ss.Close()
	}
	r.ts.CloseClientConnections()
	r.ts.Close()
}

// noKeepAlive makes each request on a connection of its own. A request
// sent on a kept-alive connection that the stopped run closed fails in
// transport (the next call finds the session gone), which would make
// which call sees what depend on timing.
var noKeepAlive = &http.Client{Transport: &http.Transport{DisableKeepAlives: true}}

// TestHTTPServerRestarts: a server over HTTP that is stopped and started
// again at the same address, with new session ids, is reconnected by the
// next call (at the latest the call after the one that found its session
// gone), which succeeds, and the tools are listed again from the new run.
func TestHTTPServerRestarts(t *testing.T) {
	first := startHTTPRun(t, "", 1, false, "echo")
	var log logBuffer
	src := connect(t, mcp.Server{Name: "web", URL: first.ts.URL, HTTPClient: noKeepAlive, Logger: log.logger()})
	tools, err := src.Tools(context.Background())
	if err != nil {
		t.Fatal(err)
	}
	if o := call(t, tools, dispatch.Options{}, "echo", `{}`); o.Outcome.Content != "echo from run 1" {
		t.Fatalf("call before the restart: %+v", o.Outcome)
	}
	first.stop()
	second := startHTTPRun(t, first.ts.Listener.Addr().String(), 2, false, "echo", "added")

	o := call(t, tools, dispatch.Options{}, "echo", `{}`)
	if o.Outcome.IsError {
		// The call that finds the session gone (rather than the SDK
		// reopening its stream) is not retried, and says so.
		for _, want := range []string{`server "web" is gone`, "session not found"} {
			if !strings.Contains(o.Outcome.Content, want) {
				t.Errorf("the call that found the session gone: %+v, want %q", o.Outcome, want)
			}
		}
		o = call(t, tools, dispatch.Options{}, "echo", `{}`)
	}
	if diff := cmp.Diff("echo from run 2", o.Outcome.Content); diff != "" || o.Outcome.IsError {
		t.Errorf("call after the restart mismatch (-want +got):\n%s\nlog:\n%s", diff, log.String())
	}
	now, err := src.Tools(context.Background())
	if err != nil {
		t.Fatal(err)
	}
	if diff := cmp.Diff([]string{"added", "echo"}, slices.Sorted(slices.Values(names(now)))); diff != "" {
		t.Errorf("tools after the restart mismatch (-want +got):\n%s", diff)
	}
	if n := second.lists.Load(); n == 0 {
		t.Error("the restarted server was never asked for its tools")
	}
	if n := second.inits.Load(); n != 1 {
		t.Errorf("the restarted server saw %d handshakes, want 1", n)
	}
	src.Close()
}

// TestHTTPServerStaysDown: a server over HTTP that is gone and does not
// come back is connected again at most MaxRestarts times; the call after
// the last says so, with how the last try failed.
func TestHTTPServerStaysDown(t *testing.T) {
	first := startHTTPRun(t, "", 1, false, "echo")
	var log logBuffer
	src := connect(t, mcp.Server{Name: "web", URL: first.ts.URL, HTTPClient: noKeepAlive, Logger: log.logger(), MaxRestarts: 2})
	tools, err := src.Tools(context.Background())
	if err != nil {
		t.Fatal(err)
	}
	// A new run that forgets the session ends it; then it stops too.
	first.stop()
	second := startHTTPRun(t, first.ts.Listener.Addr().String(), 2, true, "echo")
	o := call(t, tools, dispatch.Options{}, "echo", `{}`)
	if !strings.Contains(o.Outcome.Content, `server "web" is gone`) {
		t.Fatalf("call that finds the session gone: %+v", o.Outcome)
	}
	second.stop()
	wants := [][]string{
		{`mcp: reconnect "web"`, "connection refused"},
		{`mcp: reconnect "web"`, "connection refused"},
		{`mcp: server "web" is not connected again: it was reconnected 2 times within 1m0s`, "connection refused"},
	}
	var got []string
	start := time.Now()
	for i, want := range wants {
		o := call(t, tools, dispatch.Options{}, "echo", `{}`)
		got = append(got, o.Outcome.Content)
		for _, w := range want {
			if !o.Outcome.IsError || !strings.Contains(o.Outcome.Content, w) {
				t.Errorf("call %d: %+v, want an error result with %q", i+1, o.Outcome, w)
			}
		}
	}
	if took := time.Since(start); took > 10*time.Second {
		t.Errorf("the calls took %v: %q", took, got)
	}
	src.Close()
}
