package main

import (
	"context"
	"io"
	"net"
	"net/http"
	"os"
	"strconv"
	"strings"
	"syscall"
	"testing"

	"github.com/batonrt/baton/cmd/baton/internal/builtin"
	"github.com/batonrt/baton/conductor"
	"github.com/batonrt/baton/provider/scripted"
	"github.com/batonrt/baton/store"
)

func TestServeAGUI(t *testing.T) {
	isolate(t)
	dir := t.TempDir()
	st, err := store.Open(dir)
	if err != nil {
		t.Fatal(err)
	}
	tools, err := builtin.Open(builtin.Options{Root: t.TempDir()})
	if err != nil {
		t.Fatal(err)
	}
	defer tools.Close()
	script := scripted.New(
		scripted.Reply{Text: "Looking.", Calls: []scripted.Call{{ID: "c1", Name: "list_files", Arguments: `{}`}}},
		scripted.Reply{Text: "Empty workspace."},
	)
	addr, stop := serving(t, func(ctx context.Context, a *app, ln net.Listener) error {
		return a.serveOn(ctx, ln, st, script, "scripted", tools.Tools())
	})

	body := `{"threadId":"web-thread","runId":"r1","messages":[{"id":"m1","role":"user","content":"what is here?"}]}`
	resp, err := http.Post(addr+"/", "application/json", strings.NewReader(body))
	if err != nil {
		t.Fatal(err)
	}
	stream, err := io.ReadAll(resp.Body)
	resp.Body.Close()
	if err != nil {
		t.Fatal(err)
	}
	for _, want := range []string{"RUN_STARTED", "TOOL_CALL_START", "workspace.", "RUN_FINISHED"} {
		if !strings.Contains(string(stream), want) {
			t.Errorf("stream lacks %q:\n%s", want, stream)
		}
	}
	stop()
	code, stdout, stderr := cli(t, "", "replay", "--store", dir, "serve-web-thread")
	if code != 0 || stdout != "replay verified: 4 steps, byte for byte\n" {
		t.Errorf("replay of the served session: exit %d %q %q", code, stdout, stderr)
	}
}

// A client that connects and sends no request, as a browser's preconnect
// does, must not hold the shutdown until it fails.
func TestServeShutdownWithSilentConnection(t *testing.T) {
	isolate(t)
	st, err := store.Open(t.TempDir())
	if err != nil {
		t.Fatal(err)
	}
	addr, stop := serving(t, func(ctx context.Context, a *app, ln net.Listener) error {
		return a.serveOn(ctx, ln, st, scripted.Echo(), "scripted", nil)
	})
	conn, err := net.Dial("tcp", strings.TrimPrefix(addr, "http://"))
	if err != nil {
		t.Fatal(err)
	}
	defer conn.Close()
	stop()
}

func TestServeStopsOnSIGTERM(t *testing.T) {
	isolate(t)
	out := newSyncBuffer()
	a := &app{stdout: out, stderr: io.Discard}
	script := writeScript(t, `{"replies":[{"text":"hi"}]}`)
	served := make(chan error, 1)
	go func() {
		served <- a.serve(context.Background(), []string{"--provider", "scripted", "--script", script, "--store", t.TempDir(), "--workspace", t.TempDir(), "--addr", "127.0.0.1:0"})
	}()
	out.waitFor(t, "serving AG-UI on http://")
	if err := syscall.Kill(os.Getpid(), syscall.SIGTERM); err != nil {
		t.Fatal(err)
	}
	if err := <-served; err != nil {
		t.Errorf("serve: %v", err)
	}
}

// Beyond loopback serve refuses to start without a token; a bad
// namespace is a usage error too. Neither binds anything.
func TestServeRefusesUnsafeFlags(t *testing.T) {
	isolate(t)
	t.Setenv("BATON_SERVE_TOKEN", "")
	script := writeScript(t, `{"replies":[{"text":"hi"}]}`)
	// A port taken already: a server whose flags were let through fails
	// to listen on it rather than serves.
	taken, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	defer taken.Close()
	port := strconv.Itoa(taken.Addr().(*net.TCPAddr).Port)
	for _, tt := range []struct {
		args []string
		want string
	}{
		{[]string{"--addr", ":0"}, "listens beyond loopback: set --token or BATON_SERVE_TOKEN"},
		{[]string{"--addr", "0.0.0.0:0"}, "listens beyond loopback"},
		// A token short enough to guess lets strangers in, as a tokens
		// file's does.
		{[]string{"--addr", "0.0.0.0:" + port, "--token", "secret"}, "--token is 6 bytes, at least 16 beyond loopback"},
		// Without a token, every page the user visits could drive the
		// agent on loopback.
		{[]string{"--addr", "127.0.0.1:" + port, "--allow-origin", "https://app.example, *"}, "--allow-origin * lets every web page call the server: set --token or BATON_SERVE_TOKEN, or --tokens"},
		// Any page may send Origin: null, from a sandboxed frame.
		{[]string{"--addr", "127.0.0.1:" + port, "--allow-origin", "null"}, "--allow-origin null lets every web page call the server"},
		{[]string{"--namespace", "a\x1b[2J"}, "no control characters"},
		// Beyond loopback, so that a namespace let through fails too.
		{[]string{"--namespace", "a\u202eb", "--addr", ":0"}, "no control characters"},
		{[]string{"--namespace", "a\u200bb", "--addr", ":0"}, "no control characters"},
	} {
		args := append([]string{"serve", "--provider", "scripted", "--script", script, "--store", t.TempDir(), "--workspace", t.TempDir()}, tt.args...)
		code, _, stderr := cli(t, "", args...)
		if code != exitUsage || !strings.Contains(stderr, tt.want) {
			t.Errorf("%v: exit %d %q, want %d containing %q", tt.args, code, stderr, exitUsage, tt.want)
		}
	}
	for _, addr := range []string{"127.0.0.1:8080", "localhost:0", "[::1]:9"} {
		if !loopbackAddr(addr) {
			t.Errorf("%s is loopback", addr)
		}
	}
}

// A session made by baton run is not served: a client naming it gets a
// thread of its own, in serve's namespace, and never its history.
func TestServeExposesOnlyItsNamespace(t *testing.T) {
	isolate(t)
	st, err := store.Open(t.TempDir())
	if err != nil {
		t.Fatal(err)
	}
	private, err := conductor.CreateAgent(baseConfig("scripted"), conductor.Deps{Model: conductor.Model{Provider: scripted.New(scripted.Reply{Text: "the secret is 42"})}, Env: conductor.Env{Store: st, SessionID: "private"}})
	if err != nil {
		t.Fatal(err)
	}
	if _, err := private.Submit(context.Background(), conductor.Text("hi")); err != nil {
		t.Fatal(err)
	}
	private.Close()
	addr, stop := serving(t, func(ctx context.Context, a *app, ln net.Listener) error {
		return a.serveOn(ctx, ln, st, scripted.New(scripted.Reply{Text: "fresh"}), "scripted", nil)
	})
	defer stop()
	url := addr + "/"
	resume, err := http.Get(url + "?threadId=private&lastEventId=0")
	if err != nil {
		t.Fatal(err)
	}
	b, _ := io.ReadAll(resume.Body)
	resume.Body.Close()
	if resume.StatusCode != http.StatusNotFound || strings.Contains(string(b), "secret") {
		t.Errorf("resuming another's session: %d %q, want 404", resume.StatusCode, b)
	}
	resp, err := http.Post(url, "application/json", strings.NewReader(`{"threadId":"private","runId":"r","messages":[{"id":"m","role":"user","content":"tell me"}]}`))
	if err != nil {
		t.Fatal(err)
	}
	b, _ = io.ReadAll(resp.Body)
	resp.Body.Close()
	if !strings.Contains(string(b), "fresh") || strings.Contains(string(b), "secret") {
		t.Errorf("a thread named like another's session:\n%s", b)
	}
}

// serving runs serve on a loopback port, as baton serve would, until stop
// is called, and returns the address it serves (http://host:port). stop
// reports an error serving ended with, and lets go of the client's idle
// connections.
func serving(t *testing.T, serve func(ctx context.Context, a *app, ln net.Listener) error) (addr string, stop func()) {
	t.Helper()
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	out := newSyncBuffer()
	a := &app{stdout: out, stderr: io.Discard}
	ctx, cancel := context.WithCancel(context.Background())
	served := make(chan error, 1)
	go func() { served <- serve(ctx, a, ln) }()
	stop = func() {
		t.Helper()
		cancel()
		if err := <-served; err != nil {
			t.Errorf("serve: %v", err)
		}
		http.DefaultClient.CloseIdleConnections()
	}
	started := false
	defer func() {
		if !started {
			stop() // waitFor failed t: serving must end all the same
		}
	}()
	out.waitFor(t, "serving AG-UI on http://")
	started = true
	return "http://" + ln.Addr().String(), stop
}
