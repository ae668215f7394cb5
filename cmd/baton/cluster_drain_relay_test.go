package main

import (
	"io"
	"net/http"
	"strings"
	"syscall"
	"testing"

	"github.com/batonrt/baton/store/postgres"
	"github.com/batonrt/baton/store/postgres/pgtest"
)

// A serve process drained by SIGTERM while it relays another process's
// run to a client lets that stream go on to the run's end, within
// --drain-timeout, as it does for the streams of its own runs: a rolling
// restart ends no stream of a run that ends in time.
func TestServeDrainLetsRelayedStreamsEnd(t *testing.T) {
	skipShort(t, "spawns processes")
	isolate(t)
	ctx := t.Context()
	dbURL := pgtest.SchemaURL(t)
	script := writeScript(t, `{"loop": true, "replies": [{"text": "one two three four five six seven eight nine ten", "chunk_delay": "300ms"}]}`)
	args := []string{"--store", dbURL, "--provider", "scripted", "--script", script, "--workspace", t.TempDir(), "--drain-timeout", "20s"}
	owner, relay := startNode(t, args...), startNode(t, args...)

	go owner.post(t, "relayed", "m1", "first")
	st, err := postgres.Open(ctx, dbURL)
	if err != nil {
		t.Fatal(err)
	}
	defer st.Close()
	waitFor(t, "the owner to commit the submit", func() bool {
		_, err := st.Head(ctx, defaultNamespace+"relayed")
		return err == nil
	})
	resp, err := http.Get("http://" + relay.addr + "/?threadId=relayed&lastEventId=0")
	if err != nil {
		t.Fatal(err)
	}
	defer resp.Body.Close()
	if resp.StatusCode != http.StatusOK {
		t.Fatalf("stream from the relaying node: %d", resp.StatusCode)
	}
	var got strings.Builder
	buf := make([]byte, 4096)
	for !strings.Contains(got.String(), "TEXT_MESSAGE_CONTENT") {
		n, err := resp.Body.Read(buf)
		got.Write(buf[:n])
		if err != nil {
			t.Fatalf("relayed stream: %v\n%s", err, got.String())
		}
	}
	if err := relay.cmd.Process.Signal(syscall.SIGTERM); err != nil {
		t.Fatal(err)
	}
	rest, err := io.ReadAll(resp.Body)
	got.Write(rest)
	if err != nil || !strings.Contains(got.String(), "RUN_FINISHED") {
		t.Fatalf("the relayed stream broke off at the drain (%v):\n%s", err, got.String())
	}
}
