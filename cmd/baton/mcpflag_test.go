package main

import (
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
)

// everythingBin is the reference MCP server pinned for dispatch/mcp's
// tests; without it (and node) the test skips, except under CI.
func everythingBin(t *testing.T) string {
	t.Helper()
	bin, _ := filepath.Abs(filepath.Join("..", "..", "dispatch", "mcp", "testdata", "servers", "node_modules", ".bin", "mcp-server-everything"))
	_, err := os.Stat(bin)
	if _, nodeErr := exec.LookPath("node"); err != nil || nodeErr != nil {
		if os.Getenv("CI") != "" {
			t.Fatal("mcp-server-everything or node missing under CI: .ci/run installs them")
		}
		t.Skip("needs node and the pinned servers: npm ci --prefix dispatch/mcp/testdata/servers")
	}
	return bin
}

// TestRunMCP: a run calls a stdio MCP server's tools by their prefixed
// names, and their results reach the model and the transcript.
func TestRunMCP(t *testing.T) {
	isolate(t)
	bin := everythingBin(t)
	script := writeScript(t, `{"replies": [
	  {"tool_calls": [{"id": "c1", "name": "ev_echo", "arguments": {"message": "over mcp"}}, {"id": "c2", "name": "ev_get-tiny-image", "arguments": {}}]},
	  {"text": "Done."}
	]}`)
	code, stdout, stderr := cli(t, "", "run", "--provider", "scripted", "--script", script, "--store", t.TempDir(), "--workspace", t.TempDir(),
		"--mcp", "ev="+bin+" stdio", "call", "it")
	if code != 0 {
		t.Fatalf("exit %d: %s", code, stderr)
	}
	for _, want := range []string{"Echo: over mcp", "[image image/png, ", "Done."} {
		if !strings.Contains(stdout, want) {
			t.Errorf("transcript lacks %q:\n%s", want, stdout)
		}
	}
}

func TestRunMCPBadFlag(t *testing.T) {
	isolate(t)
	code, _, stderr := cli(t, "", "run", "--provider", "scripted", "--mcp", "nothing", "hi")
	if code != 2 || !strings.Contains(stderr, `"nothing" is not NAME=COMMAND ARGS or NAME=URL`) {
		t.Errorf("exit %d: %s", code, stderr)
	}
	code, _, stderr = cli(t, "", "run", "--provider", "scripted", "--script", writeScript(t, `{"replies": [{"text": "x"}]}`), "--store", t.TempDir(), "--mcp", "gone=/no/such/server", "hi")
	if code != 1 || !strings.Contains(stderr, `mcp: connect "gone"`) {
		t.Errorf("exit %d: %s", code, stderr)
	}
}
