package main

import (
	"bufio"
	"encoding/binary"
	"net/http"
	"net/url"
	"strings"
	"testing"

	"github.com/batonrt/baton/store/postgres"
	"github.com/batonrt/baton/store/postgres/pgtest"
	"github.com/zeebo/blake3"
)

// lockHolder returns the server pid of the connection that holds the
// session's advisory lock in the schema dbURL's search_path names.
func lockHolder(t *testing.T, dbURL, session string) int {
	t.Helper()
	u, err := url.Parse(dbURL)
	if err != nil {
		t.Fatal(err)
	}
	sum := blake3.Sum256([]byte("baton-session\x00" + u.Query().Get("search_path") + "\x00" + session))
	key := binary.LittleEndian.Uint64(sum[:8])
	var pid int
	err = pgtest.Admin(t).QueryRow(t.Context(), `SELECT pid FROM pg_locks WHERE locktype = 'advisory' AND granted
		AND classid = $1::bigint::oid AND objid = $2::bigint::oid AND objsubid = 1`, int64(key>>32), int64(key&0xffffffff)).Scan(&pid)
	if err != nil {
		t.Fatalf("holder of %s's lock: %v", session, err)
	}
	return pid
}

// A serve process whose lock connection dies (the network dropped it,
// the server restarted) loses the thread it drives to another process,
// which goes on with the run. The first process must then hand the
// thread's requests to the new driver as it would for any thread driven
// elsewhere; it must not keep answering them with its own agent, whose
// every write the store now refuses (store.ErrLockLost).
func TestClusterNodeThatLostItsLockHandsTheThreadOn(t *testing.T) {
	skipShort(t, "spawns processes")
	isolate(t)
	ctx := t.Context()
	dbURL := pgtest.SchemaURL(t)
	script := writeScript(t, `{"loop": true, "replies": [{"text": "done", "first_delay": "2s"}]}`)
	args := []string{"--store", dbURL, "--provider", "scripted", "--script", script, "--workspace", t.TempDir()}
	n1, n2 := startNode(t, args...), startNode(t, args...)
	id := defaultNamespace + "lost"

	firstDone := make(chan string, 1)
	go func() { _, body := n2.post(t, "lost", "m1", "first"); firstDone <- body }()
	st, err := postgres.Open(ctx, dbURL)
	if err != nil {
		t.Fatal(err)
	}
	defer st.Close()
	waitFor(t, "the second node to commit the submit", func() bool {
		_, err := st.Head(ctx, id)
		return err == nil
	})
	// n2's lock connection dies.
	var gone bool
	if err := pgtest.Admin(t).QueryRow(ctx, `SELECT pg_terminate_backend($1, 10000)`, lockHolder(t, dbURL, id)).Scan(&gone); err != nil || !gone {
		t.Fatalf("terminate: %v %v", gone, err)
	}
	// n1 takes the thread over (as its look for orphans would) and
	// finishes the interrupted run.
	resp, err := http.Get("http://" + n1.addr + "/?threadId=lost&lastEventId=0")
	if err != nil {
		t.Fatal(err)
	}
	sc := bufio.NewScanner(resp.Body)
	finished := false
	for sc.Scan() {
		if strings.Contains(sc.Text(), "RUN_FINISHED") {
			finished = true
			break
		}
	}
	resp.Body.Close()
	if !finished {
		t.Fatal("n1 did not finish the interrupted run")
	}
	t.Logf("n2's own stream of the first run: %s", <-firstDone)

	// The next message goes to n2.
	code, body := n2.post(t, "lost", "m3", "second")
	if code != http.StatusOK || !strings.Contains(body, "RUN_FINISHED") || strings.Contains(body, "RUN_ERROR") {
		t.Fatalf("message posted to the node that lost the thread: %d\n%s", code, body)
	}
}
