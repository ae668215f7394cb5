package main

import (
	"context"
	"io"
	"net"
	"net/http"
	"strings"
	"testing"

	"github.com/batonrt/baton/cmd/baton/internal/builtin"
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
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	out := newSyncBuffer()
	a := &app{stdout: out, stderr: io.Discard}
	ctx, cancel := context.WithCancel(context.Background())
	served := make(chan error, 1)
	go func() { served <- a.serveOn(ctx, ln, st, script, "scripted", tools.Tools()) }()
	out.waitFor(t, "serving AG-UI on http://")

	body := `{"threadId":"web-thread","runId":"r1","messages":[{"id":"m1","role":"user","content":"what is here?"}]}`
	resp, err := http.Post("http://"+ln.Addr().String()+"/", "application/json", strings.NewReader(body))
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
	cancel()
	if err := <-served; err != nil {
		t.Errorf("serve: %v", err)
	}
	http.DefaultClient.CloseIdleConnections()
	code, stdout, stderr := cli(t, "", "replay", "--store", dir, "web-thread")
	if code != 0 || stdout != "replay verified: 5 steps, byte for byte\n" {
		t.Errorf("replay of the served session: exit %d %q %q", code, stdout, stderr)
	}
}
