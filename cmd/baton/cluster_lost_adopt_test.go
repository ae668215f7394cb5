package main

import (
	"strings"
	"testing"

	"github.com/batonrt/baton/contract"
	"github.com/batonrt/baton/store/postgres"
	"github.com/batonrt/baton/store/postgres/pgtest"
)

// A serve process whose lock connection dies mid-run (the server
// restarted, the network dropped it) stops driving the thread and lets
// its lock go. With no client asking, the run must still be taken up
// and finished by a process sharing the store, as when the process
// dies: letting go of a lock already lost must not withdraw the address
// that marks the run as left behind.
func TestServeTakesUpTheRunOfANodeThatLostItsLock(t *testing.T) {
	skipShort(t, "spawns processes")
	isolate(t)
	ctx := t.Context()
	url := pgtest.SchemaURL(t)
	script := writeScript(t, `{"loop": true, "replies": [{"text": "finished elsewhere", "first_delay": "3s"}]}`)
	args := []string{"--store", url, "--provider", "scripted", "--script", script, "--workspace", t.TempDir()}
	n1, _ := startNode(t, args...), startNode(t, args...)

	go n1.post(t, "lost", "m1", "go") // its stream ends with the lost lock
	st, err := postgres.Open(ctx, url)
	if err != nil {
		t.Fatal(err)
	}
	defer st.Close()
	id := defaultNamespace + "lost"
	waitFor(t, "the first node to commit the submit", func() bool {
		_, err := st.Head(ctx, id)
		return err == nil
	})
	var gone bool
	if err := pgtest.Admin(t).QueryRow(ctx, `SELECT pg_terminate_backend($1, 10000)`, lockHolder(t, url, id)).Scan(&gone); err != nil || !gone {
		t.Fatalf("terminate: %v %v", gone, err)
	}
	waitFor(t, "a node to finish the run", func() bool {
		return recordKinds(t, url, id)[contract.SigModelReplied] > 0
	})
	if kinds := recordKinds(t, url, id); kinds[contract.SigSubmitted] != 1 || kinds[contract.SigModelReplied] != 1 {
		t.Errorf("records by kind %v: want one run answered once", kinds)
	}
	if code, stdout, stderr := cli(t, "", "replay", "--store", url, id); code != 0 || !strings.HasPrefix(stdout, "replay verified") {
		t.Fatalf("replay: exit %d %q %q", code, stdout, stderr)
	}
}
