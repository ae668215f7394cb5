package main

import (
	"io"
	"net/http"
	"strings"
	"syscall"
	"testing"
	"time"
)

// TestServeQuestionSurvivesRestart: a question asked through `baton
// serve` ends the client's stream where the run waits; the process stops
// (SIGTERM) and a new one on the same store takes the client's answer
// (a tool message) and finishes the run.
func TestServeQuestionSurvivesRestart(t *testing.T) {
	skipShort(t, "spawns processes")
	isolate(t)
	dir, ws := t.TempDir(), t.TempDir()
	ask := writeScript(t, `{"replies": [{"text": "One question.", "tool_calls": [{"id": "q1", "name": "ask_human", "arguments": {"question": "Which city?"}}]}]}`)
	finish := writeScript(t, `{"replies": [{"text": "Going to Bergen."}]}`)

	first := startNode(t, "--store", dir, "--provider", "scripted", "--script", ask, "--workspace", ws)
	code, body := first.post(t, "trip", "m1", "plan a trip")
	for _, want := range []string{`"TOOL_CALL_START"`, `"toolCallName":"ask_human"`, `"phase":"awaiting_human"`, `"RUN_FINISHED"`} {
		if code != http.StatusOK || !strings.Contains(body, want) {
			t.Fatalf("first stream (%d) lacks %s:\n%s", code, want, body)
		}
	}
	if err := first.cmd.Process.Signal(syscall.SIGTERM); err != nil {
		t.Fatal(err)
	}
	stopped := make(chan error, 1)
	go func() { stopped <- first.cmd.Wait() }()
	select {
	case <-stopped:
	case <-time.After(20 * time.Second):
		t.Fatal("serve did not stop on SIGTERM")
	}

	second := startNode(t, "--store", dir, "--provider", "scripted", "--script", finish, "--workspace", ws)
	answer := `{"threadId":"trip","runId":"m2","messages":[` +
		`{"id":"m1","role":"user","content":"plan a trip"},` +
		`{"id":"a1","role":"assistant","toolCalls":[{"id":"q1","type":"function","function":{"name":"ask_human","arguments":"{}"}}]},` +
		`{"id":"t1","role":"tool","toolCallId":"q1","content":"Bergen"}]}`
	resp, err := http.Post("http://"+second.addr+"/", "application/json", strings.NewReader(answer))
	if err != nil {
		t.Fatal(err)
	}
	defer resp.Body.Close()
	b, _ := io.ReadAll(resp.Body)
	for _, want := range []string{`"delta":"Bergen."`, `"phase":"settled"`, `"RUN_FINISHED"`} {
		if resp.StatusCode != http.StatusOK || !strings.Contains(string(b), want) {
			t.Fatalf("answered stream (%d) lacks %s:\n%s", resp.StatusCode, want, b)
		}
	}
	if strings.Contains(string(b), `"TOOL_CALL_RESULT"`) {
		t.Errorf("the stream echoed the client's own answer:\n%s", b)
	}
}
