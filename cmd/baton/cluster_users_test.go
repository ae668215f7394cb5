package main

import (
	"net/http"
	"strings"
	"testing"

	"github.com/batonrt/baton/contract"
	"github.com/batonrt/baton/store/postgres/pgtest"
)

// Serve processes sharing a store keep users apart across them: a user's
// request to a process that does not drive the user's thread is handed to
// the one that does and served as that user's, while another user naming
// the same thread at either process gets a thread of their own, answered
// as one nobody used, and reaches nothing of the first user's.
func TestServeUsersAcrossProcesses(t *testing.T) {
	skipShort(t, "spawns processes")
	isolate(t)
	url := pgtest.SchemaURL(t)
	script := writeScript(t, askCityScript)
	tokens := writeTokens(t, "alice "+aliceToken+"\nbob "+bobToken+"\n", 0o600)
	args := []string{"--store", url, "--provider", "scripted", "--script", script, "--workspace", t.TempDir(), "--tokens", tokens}
	n1, n2 := startNode(t, args...), startNode(t, args...)
	base1, base2 := "http://"+n1.addr, "http://"+n2.addr

	code, body := call(t, aliceToken, http.MethodPost, base1+"/", aguiPost("trip", "m1", "plan a trip"))
	mustContain(t, "alice's stream", code, body, `"toolCallName":"ask_human"`, `"phase":"awaiting_human"`)
	code, body = call(t, aliceToken, http.MethodGet, base2+"/trip/messages", "")
	mustContain(t, "alice's conversation read at the second process", code, body, "plan a trip", "Which city?")

	for _, base := range []string{base1, base2} {
		for _, rt := range []struct{ name, method, path, body string }{
			{"messages", http.MethodGet, "/{T}/messages", ""},
			{"AG-UI resume", http.MethodGet, "/?threadId={T}&lastEventId=0", ""},
			{"answer", http.MethodPost, "/", answerBody("{T}", "plan a trip", "ask_human", "q1", "Oslo")},
			{"abort", http.MethodPost, "/{T}/abort", ""},
		} {
			at := func(thread string) (int, string) {
				return call(t, bobToken, rt.method, base+strings.ReplaceAll(rt.path, "{T}", thread), strings.ReplaceAll(rt.body, "{T}", thread))
			}
			code, body := at("trip")
			ghostCode, ghostBody := at("ghost")
			if ghostBody = strings.ReplaceAll(ghostBody, "ghost", "trip"); code != ghostCode || body != ghostBody {
				t.Errorf("%s of alice's thread by bob at %s: %d %q; of a thread nobody used: %d %q", rt.name, base, code, body, ghostCode, ghostBody)
			}
		}
	}

	code, body = call(t, aliceToken, http.MethodPost, base2+"/", answerBody("trip", "plan a trip", "ask_human", "q1", "Bergen"))
	mustContain(t, "alice's answer at the second process", code, body, `"delta":"Bergen."`, `"phase":"settled"`)
	if kinds := recordKinds(t, url, defaultNamespace+"alice/trip"); kinds[contract.SigHumanAnswered] != 1 || kinds[contract.SigModelReplied] != 2 {
		t.Errorf("records by kind %v: want alice's answer once and two model replies", kinds)
	}
}
