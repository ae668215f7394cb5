package main

import (
	"context"
	"io"
	"net"
	"net/http"
	"strings"
	"testing"

	"github.com/batonrt/baton/provider/scripted"
	"github.com/batonrt/baton/store"
)

// baton serve, restarted over the same store, answers a message posted
// again with the stream of the run it started instead of a second run:
// the restarted server's script has no reply left, so a model call would
// fault the run. The session still replays byte for byte.
func TestServeAnswersAMessagePostedAgainAfterARestart(t *testing.T) {
	isolate(t)
	dir := t.TempDir()
	body := `{"threadId":"web-thread","runId":"r1","messages":[{"id":"m1","role":"user","content":"hello?"}]}`
	for i, script := range []*scripted.Script{scripted.New(scripted.Reply{Text: "Hello there."}), scripted.New()} {
		st, err := store.Open(dir)
		if err != nil {
			t.Fatal(err)
		}
		addr, stop := serving(t, func(ctx context.Context, a *app, ln net.Listener) error {
			return a.serveOn(ctx, ln, st, script, "scripted", nil)
		})
		resp, err := http.Post(addr+"/", "application/json", strings.NewReader(body))
		if err != nil {
			t.Fatal(err)
		}
		stream, err := io.ReadAll(resp.Body)
		resp.Body.Close()
		if err != nil {
			t.Fatal(err)
		}
		stop()
		if err := st.Close(); err != nil {
			t.Fatal(err)
		}
		for _, want := range []string{"RUN_STARTED", `there."}`, "RUN_FINISHED"} {
			if !strings.Contains(string(stream), want) {
				t.Errorf("post %d: stream lacks %q:\n%s", i+1, want, stream)
			}
		}
		if strings.Contains(string(stream), "RUN_ERROR") {
			t.Errorf("post %d: the run failed:\n%s", i+1, stream)
		}
	}
	code, stdout, stderr := cli(t, "", "replay", "--store", dir, "serve-web-thread")
	if code != 0 || stdout != "replay verified: 2 steps, byte for byte\n" {
		t.Errorf("replay of the served session: exit %d %q %q", code, stdout, stderr)
	}
}
