package main

import (
	"context"
	"io"
	"net"
	"net/http"
	"strings"
	"testing"

	"github.com/batonrt/baton/dispatch"
	"github.com/batonrt/baton/provider/scripted"
	"github.com/batonrt/baton/store"
	"github.com/batonrt/baton/wire"
)

const (
	aliceToken = "alice-token-0123456789abcdef"
	bobToken   = "bob-token-0123456789abcdef"
)

// servingUsers serves st to alice and bob, each with a token of their
// own, with the ask_human tool.
func servingUsers(t *testing.T, st store.Store, script *scripted.Script) (addr string, stop func()) {
	t.Helper()
	cfg := serveConfig{namespace: defaultNamespace, users: []wire.User{{Name: "alice", Token: aliceToken}, {Name: "bob", Token: bobToken}}}
	return serving(t, func(ctx context.Context, a *app, ln net.Listener) error {
		return a.serveWith(ctx, ln, st, script, "scripted", []dispatch.Tool{dispatch.AskHuman("")}, cfg)
	})
}

// call makes one request with a bearer token and reads the whole answer.
// header holds pairs of a name and its value.
func call(t *testing.T, token, method, url, body string, header ...string) (int, string) {
	t.Helper()
	req, err := http.NewRequest(method, url, strings.NewReader(body))
	if err != nil {
		t.Fatal(err)
	}
	if body == "" {
		req.Body = http.NoBody
	}
	if method == http.MethodPost {
		req.Header.Set("Content-Type", "application/json")
	}
	for i := 0; i+1 < len(header); i += 2 {
		req.Header.Set(header[i], header[i+1])
	}
	if token != "" {
		req.Header.Set("Authorization", "Bearer "+token)
	}
	resp, err := http.DefaultClient.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	defer resp.Body.Close()
	b, _ := io.ReadAll(resp.Body)
	return resp.StatusCode, string(b)
}

func aguiPost(thread, id, text string) string {
	return `{"threadId":"` + thread + `","runId":"` + id + `","messages":[{"id":"` + id + `","role":"user","content":"` + text + `"}]}`
}

// Two users who name the same thread have two conversations: each
// stream, each conversation read back and each stored session holds only
// its user's messages, whichever protocol posts them.
func TestServeUsersSameThreadIDSeparateConversations(t *testing.T) {
	isolate(t)
	dir := t.TempDir()
	st, err := store.Open(dir)
	if err != nil {
		t.Fatal(err)
	}
	addr, stop := servingUsers(t, st, scripted.New(scripted.Reply{Text: "Welcome-alice."}, scripted.Reply{Text: "Welcome-bob."}))
	stopped := false
	defer func() {
		if !stopped {
			stop()
		}
	}()

	code, body := call(t, aliceToken, http.MethodPost, addr+"/", aguiPost("thread-1", "m1", "i am alice"))
	mustContain(t, "alice's stream", code, body, "Welcome-alice.", "RUN_FINISHED")
	code, body = call(t, bobToken, http.MethodPost, addr+"/api/chat?protocol=ai-sdk",
		`{"id":"thread-1","messages":[{"id":"u1","role":"user","parts":[{"type":"text","text":"i am bob"}]}]}`)
	mustContain(t, "bob's stream", code, body, "Welcome-bob.")
	if strings.Contains(body, "alice") {
		t.Errorf("bob's stream shows alice's conversation:\n%s", body)
	}
	for _, u := range []struct{ token, mine, theirs string }{
		{aliceToken, "i am alice", "i am bob"},
		{bobToken, "i am bob", "i am alice"},
	} {
		code, body := call(t, u.token, http.MethodGet, addr+"/thread-1/messages", "")
		if code != http.StatusOK || !strings.Contains(body, u.mine) || strings.Contains(body, u.theirs) {
			t.Errorf("messages for %q: %d %s", u.mine, code, body)
		}
	}
	stopped = true
	stop()
	// The operator's commands read each user's session by its name.
	for session, want := range map[string]string{"serve-alice/thread-1": "i am alice", "serve-bob/thread-1": "i am bob"} {
		code, stdout, stderr := cli(t, "", "log", "--store", dir, session)
		if code != 0 || !strings.Contains(stdout, want) {
			t.Errorf("log %s: exit %d %q %q, want %q", session, code, stdout, stderr, want)
		}
	}
	code, stdout, stderr := cli(t, "", "sessions", "--store", dir)
	if code != 0 || !strings.Contains(stdout, "serve-alice/thread-1") || !strings.Contains(stdout, "serve-bob/thread-1") {
		t.Errorf("sessions: exit %d %q %q", code, stdout, stderr)
	}
}

// A user who names another's thread reaches a thread of their own, on
// every route: the answer is, byte for byte, the one a thread nobody used
// gets, so it tells nothing of the other's thread, and nothing the
// request asks (steer, abort, answer) reaches it. The owner's run waits
// for its answer as before, and takes it. A request with a bad token or
// none is refused with 401.
func TestServeUsersCannotReachOthersThreads(t *testing.T) {
	isolate(t)
	st, err := store.Open(t.TempDir())
	if err != nil {
		t.Fatal(err)
	}
	addr, stop := servingUsers(t, st, scripted.New(
		scripted.Reply{Text: "One question.", Calls: []scripted.Call{{ID: "q1", Name: "ask_human", Arguments: `{"question":"Which city?"}`}}},
		scripted.Reply{Text: "Going to Bergen."},
	))
	defer stop()
	code, body := call(t, aliceToken, http.MethodPost, addr+"/", aguiPost("trip", "m1", "plan a trip"))
	mustContain(t, "alice's stream", code, body, `"toolCallName":"ask_human"`, `"phase":"awaiting_human"`)

	ndjson := []string{"Accept", "application/x-ndjson"}
	routes := []struct {
		name, method, path string
		body               func(thread string) string
		header             []string
	}{
		{name: "AG-UI resume", method: http.MethodGet, path: "/?threadId={T}&lastEventId=0"},
		{name: "AG-UI resume as NDJSON", method: http.MethodGet, path: "/?threadId={T}&lastEventId=0", header: ndjson},
		{name: "AG-UI resume by POST", method: http.MethodPost, path: "/", body: func(th string) string { return aguiPost(th, "m1", "plan a trip") }, header: []string{"Last-Event-ID", "1"}},
		{name: "AI SDK resume", method: http.MethodGet, path: "/api/chat/{T}/stream?protocol=ai-sdk"},
		{name: "messages", method: http.MethodGet, path: "/{T}/messages"},
		{name: "steer", method: http.MethodPost, path: "/{T}/steer", body: func(string) string { return `{"text":"go to Oslo"}` }},
		{name: "abort", method: http.MethodPost, path: "/{T}/abort", body: func(string) string { return `{"mode":"now"}` }},
		{name: "AG-UI answer", method: http.MethodPost, path: "/", body: func(th string) string { return answerBody(th, "plan a trip", "ask_human", "q1", "Oslo") }},
		{name: "AG-UI answer as NDJSON", method: http.MethodPost, path: "/", body: func(th string) string { return answerBody(th, "plan a trip", "ask_human", "q1", "Oslo") }, header: ndjson},
		{name: "AI SDK answer", method: http.MethodPost, path: "/api/chat?protocol=ai-sdk", body: func(th string) string {
			return `{"id":"` + th + `","messages":[{"id":"m1","role":"user","parts":[{"type":"text","text":"plan a trip"}]},` +
				`{"id":"a1","role":"assistant","parts":[{"type":"tool-ask_human","toolCallId":"q1","state":"output-available","input":{"question":"Which city?"},"output":"Oslo"}]}]}`
		}},
	}
	ask := func(thread string, rt struct {
		name, method, path string
		body               func(thread string) string
		header             []string
	}) (int, string) {
		body := ""
		if rt.body != nil {
			body = rt.body(thread)
		}
		return call(t, bobToken, rt.method, addr+strings.ReplaceAll(rt.path, "{T}", thread), body, rt.header...)
	}
	for _, rt := range routes {
		code, body := ask("trip", rt)
		ghostCode, ghostBody := ask("ghost", rt)
		ghostBody = strings.ReplaceAll(ghostBody, "ghost", "trip")
		if code != ghostCode || body != ghostBody {
			t.Errorf("%s of alice's thread by bob: %d %q; of a thread nobody used: %d %q", rt.name, code, body, ghostCode, ghostBody)
		}
		if strings.Contains(body, "Which city") || strings.Contains(body, "One question") {
			t.Errorf("%s of alice's thread by bob shows it: %s", rt.name, body)
		}
	}

	code, body = call(t, aliceToken, http.MethodPost, addr+"/", answerBody("trip", "plan a trip", "ask_human", "q1", "Bergen"))
	mustContain(t, "alice's answered stream", code, body, `"delta":"Bergen."`, `"phase":"settled"`)
	for _, token := range []string{"", "mallory-token-0123456789abcdef", aliceToken + "x"} {
		if code, body := call(t, token, http.MethodGet, addr+"/trip/messages", ""); code != http.StatusUnauthorized {
			t.Errorf("token %q: %d %q, want 401", token, code, body)
		}
	}
}
