package main

import (
	"io"
	"net/http"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// TestServeShellAsksThePage: with --allow-shell, serve offers the shell
// tool, and its call waits for the client's approval before it runs.
func TestServeShellAsksThePage(t *testing.T) {
	skipShort(t, "spawns processes")
	isolate(t)
	ws := t.TempDir()
	node := startNode(t, "--store", t.TempDir(), "--provider", "scripted", "--script", writeScript(t, shellScript), "--workspace", ws, "--allow-shell")
	code, body := node.post(t, "sh", "m1", "go")
	for _, want := range []string{`"baton.approval_requested"`, `"toolCallName":"shell"`, `echo from-shell`, `"RUN_FINISHED"`} {
		if code != http.StatusOK || !strings.Contains(body, want) {
			t.Fatalf("first stream (%d) lacks %s:\n%s", code, want, body)
		}
	}
	if _, err := os.Stat(filepath.Join(ws, "out.txt")); err == nil {
		t.Fatal("the shell ran before it was approved")
	}
	approve := `{"threadId":"sh","runId":"m2","messages":[` +
		`{"id":"m1","role":"user","content":"go"},` +
		`{"id":"a1","role":"assistant","toolCalls":[{"id":"c1","type":"function","function":{"name":"shell","arguments":"{}"}}]},` +
		`{"id":"t1","role":"tool","toolCallId":"c1","content":"{\"approved\":true}"}]}`
	resp, err := http.Post("http://"+node.addr+"/", "application/json", strings.NewReader(approve))
	if err != nil {
		t.Fatal(err)
	}
	defer resp.Body.Close()
	b, _ := io.ReadAll(resp.Body)
	for _, want := range []string{`from-shell`, `"delta":"Finished."`, `"RUN_FINISHED"`} {
		if resp.StatusCode != http.StatusOK || !strings.Contains(string(b), want) {
			t.Fatalf("approved stream (%d) lacks %s:\n%s", resp.StatusCode, want, b)
		}
	}
	if out, err := os.ReadFile(filepath.Join(ws, "out.txt")); err != nil || string(out) != "from-shell\n" {
		t.Errorf("out.txt = %q, %v", out, err)
	}
}

// TestServeMCP: serve offers an MCP server's tools; a trusted server's
// call runs at once.
func TestServeMCP(t *testing.T) {
	skipShort(t, "spawns processes")
	isolate(t)
	bin := everythingBin(t)
	script := writeScript(t, `{"replies": [
	  {"tool_calls": [{"id": "c1", "name": "ev_echo", "arguments": {"message": "over mcp"}}]},
	  {"text": "Done."}
	]}`)
	node := startNode(t, "--store", t.TempDir(), "--provider", "scripted", "--script", script, "--workspace", t.TempDir(), "--mcp-trusted", "ev="+bin+" stdio")
	code, body := node.post(t, "mcp", "m1", "call it")
	for _, want := range []string{`"toolCallName":"ev_echo"`, `Echo: over mcp`, `"delta":"Done."`, `"RUN_FINISHED"`} {
		if code != http.StatusOK || !strings.Contains(body, want) {
			t.Fatalf("stream (%d) lacks %s:\n%s", code, want, body)
		}
	}
}
