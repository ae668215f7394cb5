package main

import (
	"bufio"
	"encoding/json"
	"io"
	"net/http"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"syscall"
	"testing"

	"github.com/batonrt/baton/contract"
	"github.com/batonrt/baton/store"
	"github.com/batonrt/baton/store/postgres/pgtest"
)

// isDraining reports whether the node refuses a thread it does not hold,
// as it does once it drains: 503 with a Retry-After. The request (an AI
// SDK resume of a thread no one used) calls no model.
func (n *serveNode) isDraining(t *testing.T) bool {
	t.Helper()
	resp, err := http.Get("http://" + n.addr + "/probe/stream?protocol=ai-sdk")
	if err != nil {
		return false
	}
	resp.Body.Close()
	return resp.StatusCode == http.StatusServiceUnavailable && resp.Header.Get("Retry-After") != ""
}

// openStream posts body to the node's path and reads the stream up to
// the line that holds upTo; it returns the stream, what it read and the
// last SSE id.
func (n *serveNode) openStream(t *testing.T, path, body, upTo string) (io.ReadCloser, string, string) {
	t.Helper()
	resp, err := http.Post("http://"+n.addr+path, "application/json", strings.NewReader(body))
	if err != nil {
		t.Fatal(err)
	}
	if resp.StatusCode != http.StatusOK {
		b, _ := io.ReadAll(resp.Body)
		t.Fatalf("POST %s: %d %s", path, resp.StatusCode, b)
	}
	r := bufio.NewReader(resp.Body)
	var read strings.Builder
	var id string
	for {
		line, err := r.ReadString('\n')
		read.WriteString(line)
		if v, ok := strings.CutPrefix(line, "id: "); ok {
			id = strings.TrimSpace(v)
		}
		if strings.Contains(line, upTo) {
			return struct {
				io.Reader
				io.Closer
			}{r, resp.Body}, read.String(), id
		}
		if err != nil {
			t.Fatalf("stream ended before %s: %v\n%s", upTo, err, read.String())
		}
	}
}

// deltaField is a streamed piece of text in either protocol's frames.
var deltaField = regexp.MustCompile(`"delta":("(?:[^"\\]|\\.)*")`)

// streamedText joins the text a stream's frames carry.
func streamedText(stream string) string {
	var b strings.Builder
	for _, m := range deltaField.FindAllStringSubmatch(stream, -1) {
		var s string
		if err := json.Unmarshal([]byte(m[1]), &s); err == nil {
			b.WriteString(s)
		}
	}
	return b.String()
}

// runStarted names the run an AG-UI RUN_STARTED frame starts.
var runStarted = regexp.MustCompile(`"type":"RUN_STARTED".*"runId":"([^"]+)"`)

// checkReconnected checks what an AG-UI client read over a stream broken
// off and the one it reconnected with: one run, started (a reconnected
// stream starts its run again) and finished once, whose reply is text,
// whole and once.
func checkReconnected(t *testing.T, streams, text string) {
	t.Helper()
	runs := map[string]bool{}
	for _, m := range runStarted.FindAllStringSubmatch(streams, -1) {
		runs[m[1]] = true
	}
	if len(runs) != 1 || strings.Count(streams, "RUN_FINISHED") != 1 || strings.Contains(streams, "RUN_ERROR") {
		t.Errorf("the client's streams show runs %v, finished %d times, want one run finished once without error:\n%s", runs, strings.Count(streams, "RUN_FINISHED"), streams)
	}
	if got := streamedText(streams); got != text {
		t.Errorf("the client's streams say %q, want %q", got, text)
	}
}

// signal sends sig to the node's process.
func (n *serveNode) signal(t *testing.T, sig syscall.Signal) {
	t.Helper()
	if err := n.cmd.Process.Signal(sig); err != nil {
		t.Fatal(err)
	}
}

// get reads the whole answer to a GET of path.
func (n *serveNode) get(t *testing.T, path string) string {
	t.Helper()
	resp, err := http.Get("http://" + n.addr + path)
	if err != nil {
		t.Fatal(err)
	}
	defer resp.Body.Close()
	b, _ := io.ReadAll(resp.Body)
	return string(b)
}

// signalKinds counts the stored session's records by kind.
func signalKinds(t *testing.T, st store.Store, session string) map[contract.SignalKind]int {
	t.Helper()
	recs, err := st.Records(t.Context(), session)
	if err != nil {
		t.Fatal(err)
	}
	kinds := map[contract.SignalKind]int{}
	for _, r := range recs {
		kinds[r.Signal.SignalKind()]++
	}
	return kinds
}

// A serve process told to stop with SIGTERM, as a service manager does
// for a deploy, lets a run in flight finish: its client gets the whole
// reply, while a new thread is refused with 503 and a Retry-After; the
// process exits once the run has ended, the run settled, not aborted.
func TestServeDrainLetsRunFinish(t *testing.T) {
	skipShort(t, "spawns processes")
	isolate(t)
	dir, ws := t.TempDir(), t.TempDir()
	gate := filepath.Join(ws, "gate")
	if err := syscall.Mkfifo(gate, 0o600); err != nil {
		t.Fatal(err)
	}
	script := writeScript(t, `{"replies": [
		{"text": "Waiting at the gate.", "tool_calls": [{"id": "s1", "name": "shell", "arguments": {"command": "cat gate"}}]},
		{"text": "The gate opened."}]}`)
	node := startNode(t, "--store", dir, "--provider", "scripted", "--script", script, "--workspace", ws, "--allow-shell", "--drain-timeout", "10m")

	code, body := node.post(t, "gate", "m1", "open the gate")
	mustContain(t, "first stream", code, body, `"phase":"awaiting_approval"`)
	answered := make(chan string, 1)
	go func() {
		code, body := node.postRaw(t, answerBody("gate", "open the gate", "shell", "s1", "yes"))
		answered <- http.StatusText(code) + "\n" + body
	}()
	// The command waits at the gate once it has opened it for reading.
	var w *os.File
	waitFor(t, "the command to wait at the gate", func() bool {
		var err error
		w, err = os.OpenFile(gate, os.O_WRONLY|syscall.O_NONBLOCK, 0)
		return err == nil
	})
	node.signal(t, syscall.SIGTERM)
	waitFor(t, "the node to drain", func() bool { return node.isDraining(t) })
	resp, err := http.Post("http://"+node.addr+"/", "application/json", strings.NewReader(`{"threadId":"new","runId":"n1","messages":[{"id":"n1","role":"user","content":"hi"}]}`))
	if err != nil {
		t.Fatal(err)
	}
	resp.Body.Close()
	if resp.StatusCode != http.StatusServiceUnavailable || resp.Header.Get("Retry-After") == "" {
		t.Errorf("a new thread while draining: %d, Retry-After %q; want 503 with one", resp.StatusCode, resp.Header.Get("Retry-After"))
	}

	if _, err := w.WriteString("open\n"); err != nil {
		t.Fatal(err)
	}
	w.Close()
	got := <-answered
	for _, want := range []string{"OK", `"content":"open\n"`, `"phase":"settled"`, "RUN_FINISHED"} {
		if !strings.Contains(got, want) {
			t.Fatalf("the stream of the run in flight lacks %s:\n%s", want, got)
		}
	}
	if text := streamedText(got); text != "The gate opened." {
		t.Errorf("the stream of the run in flight says %q, want the whole reply", text)
	}
	if strings.Contains(got, "RUN_ERROR") {
		t.Fatalf("the run in flight was stopped:\n%s", got)
	}
	if err := node.cmd.Wait(); err != nil {
		t.Fatalf("serve after draining: %v", err)
	}
	st, err := store.Open(dir)
	if err != nil {
		t.Fatal(err)
	}
	defer st.Close()
	if kinds := signalKinds(t, st, defaultNamespace+"gate"); kinds[contract.SigAbortRequested] != 0 || kinds[contract.SigModelReplied] != 2 {
		t.Errorf("records by kind %v: want both replies and no abort", kinds)
	}
}

// A run that outlives the drain (a second SIGTERM ends it at once) is
// left in flight in the store, not aborted: the streams of both
// protocols break off as if the server had died, and once the process is
// restarted on the same store the clients' reconnects find the run going
// on, and get its reply once.
func TestServeDrainLeavesRunForRestart(t *testing.T) {
	skipShort(t, "spawns processes")
	isolate(t)
	dir, ws := t.TempDir(), t.TempDir()
	hang := writeScript(t, `{"loop": true, "replies": [{"fail": {"hang": true}}]}`)
	reply := writeScript(t, `{"loop": true, "replies": [{"text": "Finished after the restart."}]}`)
	n1 := startNode(t, "--store", dir, "--provider", "scripted", "--script", hang, "--workspace", ws)

	agui, aguiRead, lastID := n1.openStream(t, "/", `{"threadId":"left","runId":"m1","messages":[{"id":"m1","role":"user","content":"go"}]}`, "RUN_STARTED")
	sdk, sdkRead, _ := n1.openStream(t, "/?protocol=ai-sdk", `{"id":"left-sdk","messages":[{"id":"m1","role":"user","parts":[{"type":"text","text":"go"}]}]}`, `"type":"start"`)
	n1.signal(t, syscall.SIGTERM)
	waitFor(t, "the node to drain", func() bool { return n1.isDraining(t) })
	n1.signal(t, syscall.SIGTERM)
	for _, s := range []struct {
		name string
		body io.ReadCloser
		ends []string
	}{
		{"AG-UI", agui, []string{"RUN_ERROR", "RUN_FINISHED"}},
		{"AI SDK", sdk, []string{`"type":"finish"`, `"type":"abort"`, `"type":"error"`, "[DONE]"}},
	} {
		rest, err := io.ReadAll(s.body)
		s.body.Close()
		if err == nil {
			t.Errorf("the %s stream of the run left ended cleanly, not broken off:\n%s", s.name, rest)
		}
		for _, end := range s.ends {
			if strings.Contains(string(rest), end) {
				t.Errorf("the %s stream of the run left ends its run with %s:\n%s", s.name, end, rest)
			}
		}
	}
	if err := n1.cmd.Wait(); err != nil {
		t.Fatalf("serve after draining: %v", err)
	}
	st, err := store.Open(dir)
	if err != nil {
		t.Fatal(err)
	}
	for _, id := range []string{"left", "left-sdk"} {
		if kinds := signalKinds(t, st, defaultNamespace+id); kinds[contract.SigAbortRequested] != 0 || kinds[contract.SigModelFailed] != 0 || kinds[contract.SigSubmitted] != 1 {
			t.Errorf("%s: records by kind %v: want the run submitted and left as it was", id, kinds)
		}
	}
	st.Close()

	n2 := startNode(t, "--store", dir, "--provider", "scripted", "--script", reply, "--workspace", ws)
	checkReconnected(t, aguiRead+n2.get(t, "/?threadId=left&lastEventId="+lastID), "Finished after the restart.")
	// The AI SDK client's resume streams the run from its start while it
	// is in flight, and answers 204 once it has ended (the restarted
	// server may finish it first); the thread's messages hold it either
	// way.
	resp, err := http.Get("http://" + n2.addr + "/left-sdk/stream?protocol=ai-sdk")
	if err != nil {
		t.Fatal(err)
	}
	b, _ := io.ReadAll(resp.Body)
	resp.Body.Close()
	switch resp.StatusCode {
	case http.StatusOK:
		if text := streamedText(string(b)); text != "Finished after the restart." {
			t.Errorf("the AI SDK client's resumed stream says %q, want the whole reply once", text)
		}
		for want, n := range map[string]int{`"type":"finish"`: 1, "[DONE]": 1, `"type":"error"`: 0} {
			if got := strings.Count(string(b), want); got != n {
				t.Errorf("the AI SDK client's resumed stream holds %s %d times, want %d:\n%s\n(before: %s)", want, got, n, b, sdkRead)
			}
		}
	case http.StatusNoContent:
	default:
		t.Errorf("the AI SDK client's resume: %d %s", resp.StatusCode, b)
	}
	if msgs := n2.get(t, "/left-sdk/messages"); strings.Count(msgs, "Finished after the restart.") != 1 || !strings.Contains(msgs, `"phase":"settled"`) {
		t.Errorf("the AI SDK thread's messages lack the reply once, settled:\n%s", msgs)
	}
	n2.signal(t, syscall.SIGTERM)
	if err := n2.cmd.Wait(); err != nil {
		t.Fatal(err)
	}
	st, err = store.Open(dir)
	if err != nil {
		t.Fatal(err)
	}
	defer st.Close()
	for _, id := range []string{"left", "left-sdk"} {
		if kinds := signalKinds(t, st, defaultNamespace+id); kinds[contract.SigSubmitted] != 1 || kinds[contract.SigModelReplied] != 1 {
			t.Errorf("%s: records by kind %v: want one run answered once", id, kinds)
		}
		if code, stdout, stderr := cli(t, "", "replay", "--store", dir, defaultNamespace+id); code != 0 || !strings.HasPrefix(stdout, "replay verified") {
			t.Errorf("replay %s: exit %d %q %q", id, code, stdout, stderr)
		}
	}
}

// With a store shared by several serve processes, a run one of them
// leaves in flight as it drains (--drain-timeout 0) goes on in another,
// which takes it up with no client asking; the client's reconnect, to
// the other process, gets its reply once, and the session replays with
// the run answered once, unaborted.
func TestServeDrainHandsRunToLiveNode(t *testing.T) {
	skipShort(t, "spawns processes")
	isolate(t)
	dbURL := pgtest.SchemaURL(t)
	ws := t.TempDir()
	hang := writeScript(t, `{"loop": true, "replies": [{"fail": {"hang": true}}]}`)
	reply := writeScript(t, `{"loop": true, "replies": [{"text": "Finished on the other server."}]}`)
	n1 := startNode(t, "--store", dbURL, "--provider", "scripted", "--script", hang, "--workspace", ws, "--drain-timeout", "0")
	n2 := startNode(t, "--store", dbURL, "--provider", "scripted", "--script", reply, "--workspace", ws)

	stream, read, lastID := n1.openStream(t, "/", `{"threadId":"moved","runId":"m1","messages":[{"id":"m1","role":"user","content":"go"}]}`, "RUN_STARTED")
	n1.signal(t, syscall.SIGTERM)
	rest, err := io.ReadAll(stream)
	stream.Close()
	if err == nil || strings.Contains(string(rest), "RUN_ERROR") || strings.Contains(string(rest), "RUN_FINISHED") {
		t.Fatalf("the stream of the run left was not broken off (%v):\n%s", err, rest)
	}
	if err := n1.cmd.Wait(); err != nil {
		t.Fatalf("serve after draining: %v", err)
	}
	if kinds := recordKinds(t, dbURL, defaultNamespace+"moved"); kinds[contract.SigAbortRequested] != 0 || kinds[contract.SigModelFailed] != 0 {
		t.Fatalf("records by kind %v: want the run left as it was", kinds)
	}
	// The other process takes the run up by itself, as one whose owner
	// died, and the client's reconnect finds it there.
	waitFor(t, "the other node to finish the run left", func() bool {
		return recordKinds(t, dbURL, defaultNamespace+"moved")[contract.SigModelReplied] > 0
	})
	checkReconnected(t, read+n2.get(t, "/?threadId=moved&lastEventId="+lastID), "Finished on the other server.")
	if kinds := recordKinds(t, dbURL, defaultNamespace+"moved"); kinds[contract.SigSubmitted] != 1 || kinds[contract.SigModelReplied] != 1 || kinds[contract.SigAbortRequested] != 0 {
		t.Errorf("records by kind %v: want one run answered once", kinds)
	}
	if code, stdout, stderr := cli(t, "", "replay", "--store", dbURL, defaultNamespace+"moved"); code != 0 || !strings.HasPrefix(stdout, "replay verified") {
		t.Fatalf("replay: exit %d %q %q", code, stdout, stderr)
	}
}
