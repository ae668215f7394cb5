package main

import (
	"io"
	"net/http"
	"net/http/httptest"
	"net/url"
	"strings"
	"testing"

	"github.com/batonrt/baton/store"
	"github.com/batonrt/baton/store/postgres"
	"github.com/batonrt/baton/store/postgres/pgtest"
	"github.com/jackc/pgx/v5"
)

// A thread whose first message another serve process took a moment
// before (it holds the session's lock and advertised its address, but has
// stored nothing yet) is that process's: a request for it is handed
// there, as for a thread whose session is stored, not answered with a
// run that fails on the lock.
func TestServeHandsANewThreadToTheProcessThatLockedIt(t *testing.T) {
	skipShort(t, "spawns processes")
	isolate(t)
	ctx := t.Context()
	dbURL := pgtest.SchemaURL(t)
	forwarded := make(chan string, 1)
	owner := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		body, _ := io.ReadAll(r.Body)
		select {
		case forwarded <- r.Header.Get("Baton-Forwarded") + " " + string(body):
		default:
		}
		w.Header().Set("Content-Type", "text/event-stream")
		io.WriteString(w, `data: {"type":"RUN_FINISHED","threadId":"early","runId":"run-of-the-owner"}`+"\n\n")
	}))
	defer owner.Close()
	b, err := postgres.OpenBackend(ctx, dbURL)
	if err != nil {
		t.Fatal(err)
	}
	b.Advertise(owner.URL)
	st := store.New(b)
	defer st.Close()
	release, err := st.Lock(ctx, defaultNamespace+"early")
	if err != nil {
		t.Fatal(err)
	}
	defer release()

	script := writeScript(t, `{"replies": [{"text": "a second driver"}]}`)
	n := startNode(t, "--store", dbURL, "--provider", "scripted", "--script", script, "--workspace", t.TempDir())
	code, body := n.post(t, "early", "m1", "hello")
	if code != http.StatusOK || !strings.Contains(body, "run-of-the-owner") {
		t.Fatalf("the post was not handed to the process holding the thread: %d\n%s", code, body)
	}
	select {
	case got := <-forwarded:
		if !strings.HasPrefix(got, "1 ") || !strings.Contains(got, "hello") {
			t.Errorf("the owner got %q, want the forwarded post", got)
		}
	default:
		t.Error("the owner got no request")
	}
	if _, err := st.Head(ctx, defaultNamespace+"early"); err == nil {
		t.Error("the second process stored the session it does not hold")
	}
}

// Asking a serve process sharing a store about a thread nobody used (its
// messages, its stream, an abort) stores nothing of it.
func TestServeLeavesNoTraceOfUnusedThreads(t *testing.T) {
	skipShort(t, "spawns processes")
	isolate(t)
	dbURL := pgtest.SchemaURL(t)
	script := writeScript(t, `{"replies": [{"text": "hi"}]}`)
	n := startNode(t, "--store", dbURL, "--provider", "scripted", "--script", script, "--workspace", t.TempDir())
	for _, path := range []string{"/unused/messages", "/?threadId=unused&lastEventId=0"} {
		resp, err := http.Get("http://" + n.addr + path)
		if err != nil {
			t.Fatal(err)
		}
		io.Copy(io.Discard, resp.Body)
		resp.Body.Close()
	}
	u, err := url.Parse(dbURL)
	if err != nil {
		t.Fatal(err)
	}
	var rows int
	err = pgtest.Admin(t).QueryRow(t.Context(), `SELECT count(*) FROM `+pgx.Identifier{u.Query().Get("search_path"), "baton_owners"}.Sanitize()+` WHERE session = $1`, defaultNamespace+"unused").Scan(&rows)
	if err != nil || rows != 0 {
		t.Errorf("the store holds %d owner rows of the unused thread (%v)", rows, err)
	}
}
