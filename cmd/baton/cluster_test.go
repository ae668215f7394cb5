package main

import (
	"io"
	"net/http"
	"os"
	"path/filepath"
	"strings"
	"syscall"
	"testing"

	"github.com/batonrt/baton/contract"
	"github.com/batonrt/baton/store/postgres"
	"github.com/batonrt/baton/store/postgres/pgtest"
)

// postRaw posts an AG-UI body to the node and reads the whole answer.
func (n *serveNode) postRaw(t *testing.T, body string) (int, string) {
	t.Helper()
	resp, err := http.Post("http://"+n.addr+"/", "application/json", strings.NewReader(body))
	if err != nil {
		t.Fatal(err)
	}
	defer resp.Body.Close()
	b, _ := io.ReadAll(resp.Body)
	return resp.StatusCode, string(b)
}

// mustContain fails the test unless the answer is 200 and holds each of
// want.
func mustContain(t *testing.T, what string, code int, body string, want ...string) {
	t.Helper()
	for _, w := range want {
		if code != http.StatusOK || !strings.Contains(body, w) {
			t.Fatalf("%s (%d) lacks %s:\n%s", what, code, w, body)
		}
	}
}

// recordKinds counts a stored session's records by kind.
func recordKinds(t *testing.T, url, session string) map[contract.SignalKind]int {
	t.Helper()
	st, err := postgres.Open(t.Context(), url)
	if err != nil {
		t.Fatal(err)
	}
	defer st.Close()
	return signalKinds(t, st, session)
}

// answerBody is the AG-UI body that answers call id of tool name with
// content, as a page sends it.
func answerBody(thread, prompt, tool, id, content string) string {
	return `{"threadId":"` + thread + `","runId":"m2","messages":[` +
		`{"id":"m1","role":"user","content":"` + prompt + `"},` +
		`{"id":"a1","role":"assistant","toolCalls":[{"id":"` + id + `","type":"function","function":{"name":"` + tool + `","arguments":"{}"}}]},` +
		`{"id":"t1","role":"tool","toolCallId":"` + id + `","content":"` + content + `"}]}`
}

// askCityScript asks which city, then goes to Bergen.
const askCityScript = `{"replies": [
	{"text": "One question.", "tool_calls": [{"id": "q1", "name": "ask_human", "arguments": {"question": "Which city?"}}]},
	{"text": "Going to Bergen."}]}`

// An answer posted to a serve process that does not drive the thread
// reaches the one that does: the second node hands it to the first, which
// applies it once and streams the rest of the run back through the
// second; the same answer again is refused, as the owner refuses it.
func TestServeAnswerPostedToNonOwner(t *testing.T) {
	skipShort(t, "spawns processes")
	isolate(t)
	url := pgtest.SchemaURL(t)
	script := writeScript(t, askCityScript)
	args := []string{"--store", url, "--provider", "scripted", "--script", script, "--workspace", t.TempDir()}
	n1, n2 := startNode(t, args...), startNode(t, args...)

	code, body := n1.post(t, "trip", "m1", "plan a trip")
	mustContain(t, "first stream", code, body, `"toolCallName":"ask_human"`, `"phase":"awaiting_human"`, `"RUN_FINISHED"`)
	answer := answerBody("trip", "plan a trip", "ask_human", "q1", "Bergen")
	code, body = n2.postRaw(t, answer)
	mustContain(t, "answered stream from the second node", code, body, `"delta":"Bergen."`, `"phase":"settled"`, `"RUN_FINISHED"`)
	if code, body := n2.postRaw(t, answer); code != http.StatusConflict {
		t.Errorf("the same answer again: %d %q, want 409", code, body)
	}
	if kinds := recordKinds(t, url, defaultNamespace+"trip"); kinds[contract.SigHumanAnswered] != 1 || kinds[contract.SigModelReplied] != 2 {
		t.Errorf("records by kind %v: want the answer once and two model replies", kinds)
	}
}

// An approval posted to a serve process that does not drive the thread
// reaches the one that does: the first node runs the approved command
// once and streams the rest of the run back through the second.
func TestServeApprovalPostedToNonOwner(t *testing.T) {
	skipShort(t, "spawns processes")
	isolate(t)
	url := pgtest.SchemaURL(t)
	ws := t.TempDir()
	script := writeScript(t, `{"replies": [
		{"text": "Let me write it.", "tool_calls": [{"id": "s1", "name": "shell", "arguments": {"command": "echo ran >> proof.txt"}}]},
		{"text": "Wrote the proof."}]}`)
	args := []string{"--store", url, "--provider", "scripted", "--script", script, "--workspace", ws, "--allow-shell"}
	n1, n2 := startNode(t, args...), startNode(t, args...)

	code, body := n1.post(t, "approve", "m1", "write the proof")
	mustContain(t, "first stream", code, body, `"toolCallName":"shell"`, `"phase":"awaiting_approval"`, `"RUN_FINISHED"`)
	code, body = n2.postRaw(t, answerBody("approve", "write the proof", "shell", "s1", "yes"))
	mustContain(t, "approved stream from the second node", code, body, `"delta":"proof."`, `"phase":"settled"`, `"RUN_FINISHED"`)
	if got, err := os.ReadFile(filepath.Join(ws, "proof.txt")); err != nil || string(got) != "ran\n" {
		t.Errorf("proof.txt holds %q (%v), want the command run once", got, err)
	}
	if kinds := recordKinds(t, url, defaultNamespace+"approve"); kinds[contract.SigApprovalResolved] != 1 || kinds[contract.SigToolSettled] != 1 {
		t.Errorf("records by kind %v: want the approval and the command's result once each", kinds)
	}
}

// A serve process killed with SIGKILL mid-run leaves its run to the
// others: with no client asking, another process finds the session whose
// owner died, takes it and finishes the run, once.
func TestServeResumesRunOfKilledNode(t *testing.T) {
	skipShort(t, "spawns processes")
	isolate(t)
	ctx := t.Context()
	url := pgtest.SchemaURL(t)
	script := writeScript(t, `{"loop": true, "replies": [{"text": "finished elsewhere", "first_delay": "1s"}]}`)
	args := []string{"--store", url, "--provider", "scripted", "--script", script, "--workspace", t.TempDir()}
	n1, _ := startNode(t, args...), startNode(t, args...)

	go n1.post(t, "orphan", "m1", "go") // its stream is cut by the kill
	st, err := postgres.Open(ctx, url)
	if err != nil {
		t.Fatal(err)
	}
	defer st.Close()
	id := defaultNamespace + "orphan"
	waitFor(t, "the first node to commit the submit", func() bool {
		_, err := st.Head(ctx, id)
		return err == nil
	})
	if err := n1.cmd.Process.Signal(syscall.SIGKILL); err != nil {
		t.Fatal(err)
	}
	_ = n1.cmd.Wait()
	waitFor(t, "the second node to finish the run", func() bool {
		return recordKinds(t, url, id)[contract.SigModelReplied] > 0
	})
	if kinds := recordKinds(t, url, id); kinds[contract.SigSubmitted] != 1 || kinds[contract.SigModelReplied] != 1 {
		t.Errorf("records by kind %v: want one run answered once", kinds)
	}
	if code, stdout, stderr := cli(t, "", "replay", "--store", url, id); code != 0 || !strings.HasPrefix(stdout, "replay verified") {
		t.Fatalf("replay: exit %d %q %q", code, stdout, stderr)
	}
}
