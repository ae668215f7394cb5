package main

import (
	"bytes"
	"context"
	"encoding/json"
	"os/exec"
	"syscall"
	"testing"
	"time"

	"github.com/batonrt/baton/store"
	"github.com/google/go-cmp/cmp"
)

// The AI SDK's chat posts while the server is down, so nothing of the
// thread is recorded; the server that comes up then knows the thread as
// an empty, idle one. The chat must post again rather than take the
// empty thread for its finished run: the killed-server tests count on
// every thread the client reports being a stored session.
func TestServeKilledBeforePostAISDKClient(t *testing.T) {
	skipShort(t, "spawns processes")
	dir := aguiHarness(t)
	isolate(t)
	srv := startKillingServer(t)
	_ = srv.node.cmd.Process.Signal(syscall.SIGKILL)
	_ = srv.node.cmd.Wait()

	ctx, cancel := context.WithTimeout(t.Context(), 90*time.Second)
	defer cancel()
	cmd := exec.CommandContext(ctx, "node", "killed-ui.mjs", "http://"+srv.node.addr+"/", `["b00"]`)
	cmd.Dir = dir
	var stdout, stderr bytes.Buffer
	cmd.Stdout, cmd.Stderr = &stdout, &stderr
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	// Long enough for the chat, once node is up, to post to the dead
	// address and find nothing there.
	time.Sleep(3 * time.Second)
	srv.node = startNode(t, append(srv.args, "--script", srv.scripts[0], "--addr", srv.node.addr)...)
	if err := cmd.Wait(); err != nil {
		t.Fatalf("node: %v\nstderr:\n%s", err, stderr.String())
	}
	srv.stop()

	st, err := store.Open(srv.store)
	if err != nil {
		t.Fatal(err)
	}
	defer st.Close()
	var r struct {
		Messages []uiMessage `json:"messages"`
		Finished bool        `json:"finished"`
	}
	if err := json.Unmarshal(bytes.TrimSpace(stdout.Bytes()), &r); err != nil {
		t.Fatalf("client output %q: %v", stdout.String(), err)
	}
	if !r.Finished {
		t.Fatal("the chat did not see its run end")
	}
	if _, err := st.Head(t.Context(), defaultNamespace+"b00"); err != nil {
		t.Fatalf("the chat reported its run finished, with %d messages, but the thread's session is not stored: %v", len(r.Messages), err)
	}
	want := compactCalls(storedTranscript(t, st, defaultNamespace+"b00"))
	if diff := cmp.Diff(want, uiTranscript(t, r.Messages)); diff != "" {
		t.Errorf("the chat's conversation is not the stored one (-stored +chat):\n%s", diff)
	}
}
