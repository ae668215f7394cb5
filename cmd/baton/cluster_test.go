package main

import (
	"io"
	"net/http"
	"strings"
	"testing"

	"github.com/batonrt/baton/contract"
	"github.com/batonrt/baton/store/postgres"
	"github.com/batonrt/baton/store/postgres/pgtest"
)

// An answer posted to a serve process that does not drive the thread
// reaches the one that does: the second node hands it to the first, which
// applies it once and streams the rest of the run back through the
// second; the same answer again is refused, as the owner refuses it.
func TestServeAnswerPostedToNonOwner(t *testing.T) {
	if testing.Short() {
		t.Skip("spawns processes")
	}
	isolate(t)
	ctx := t.Context()
	url := pgtest.SchemaURL(t)
	script := writeScript(t, `{"replies": [
		{"text": "One question.", "tool_calls": [{"id": "q1", "name": "ask_human", "arguments": {"question": "Which city?"}}]},
		{"text": "Going to Bergen."}]}`)
	args := []string{"--store", url, "--provider", "scripted", "--script", script, "--workspace", t.TempDir()}
	n1, n2 := startNode(t, args...), startNode(t, args...)

	code, body := n1.post(t, "trip", "m1", "plan a trip")
	for _, want := range []string{`"toolCallName":"ask_human"`, `"phase":"awaiting_human"`, `"RUN_FINISHED"`} {
		if code != http.StatusOK || !strings.Contains(body, want) {
			t.Fatalf("first stream (%d) lacks %s:\n%s", code, want, body)
		}
	}
	answer := `{"threadId":"trip","runId":"m2","messages":[` +
		`{"id":"m1","role":"user","content":"plan a trip"},` +
		`{"id":"a1","role":"assistant","toolCalls":[{"id":"q1","type":"function","function":{"name":"ask_human","arguments":"{}"}}]},` +
		`{"id":"t1","role":"tool","toolCallId":"q1","content":"Bergen"}]}`
	post := func() (int, string) {
		resp, err := http.Post("http://"+n2.addr+"/", "application/json", strings.NewReader(answer))
		if err != nil {
			t.Fatal(err)
		}
		defer resp.Body.Close()
		b, _ := io.ReadAll(resp.Body)
		return resp.StatusCode, string(b)
	}
	code, body = post()
	for _, want := range []string{`"delta":"Bergen."`, `"phase":"settled"`, `"RUN_FINISHED"`} {
		if code != http.StatusOK || !strings.Contains(body, want) {
			t.Fatalf("answered stream from the second node (%d) lacks %s:\n%s", code, want, body)
		}
	}
	if code, body := post(); code != http.StatusConflict {
		t.Errorf("the same answer again: %d %q, want 409", code, body)
	}
	st, err := postgres.Open(ctx, url)
	if err != nil {
		t.Fatal(err)
	}
	defer st.Close()
	recs, err := st.Records(ctx, defaultNamespace+"trip")
	if err != nil {
		t.Fatal(err)
	}
	kinds := map[contract.SignalKind]int{}
	for _, r := range recs {
		kinds[r.Signal.SignalKind()]++
	}
	if kinds[contract.SigHumanAnswered] != 1 || kinds[contract.SigModelReplied] != 2 {
		t.Errorf("records by kind %v: want the answer once and two model replies", kinds)
	}
}
