package main

import (
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
)

// shiftingServer is the small MCP server under dispatch/mcp's testdata
// whose tool list changes mid-call, run with node; without node and the
// pinned SDK the test skips, except under CI.
func shiftingServer(t *testing.T) string {
	t.Helper()
	dir, _ := filepath.Abs(filepath.Join("..", "..", "dispatch", "mcp", "testdata", "servers"))
	_, err := os.Stat(filepath.Join(dir, "node_modules", "@modelcontextprotocol", "sdk", "package.json"))
	if _, nodeErr := exec.LookPath("node"); err != nil || nodeErr != nil {
		if os.Getenv("CI") != "" {
			t.Fatal("node or the MCP SDK missing under CI: .ci/run installs them")
		}
		t.Skip("needs node and the pinned servers: npm ci --prefix dispatch/mcp/testdata/servers")
	}
	return "node " + filepath.Join(dir, "shifting.mjs")
}

// TestRunMCPToolsChangeMidRun: a server whose tool list changes during a
// run (its tool shift drops old and itself and adds fresh) has the new
// list reach the run's next model call: fresh runs, old is answered as
// an unknown tool the model can read, and shift, in flight when it was
// dropped, finishes normally. The session records the change and
// replays byte for byte.
func TestRunMCPToolsChangeMidRun(t *testing.T) {
	isolate(t)
	server := shiftingServer(t)
	script := writeScript(t, `{"replies": [
	  {"tool_calls": [{"id": "c1", "name": "lc_shift", "arguments": {}}]},
	  {"tool_calls": [{"id": "c2", "name": "lc_fresh", "arguments": {}}, {"id": "c3", "name": "lc_old", "arguments": {}}]},
	  {"text": "Done."}
	]}`)
	dir := t.TempDir()
	code, stdout, stderr := cli(t, "", "run", "--provider", "scripted", "--script", script, "--store", dir, "--workspace", t.TempDir(), "--mcp-trusted", "lc="+server, "shift", "the", "tools")
	if code != 0 {
		t.Fatalf("exit %d: %s", code, stderr)
	}
	for _, want := range []string{"shifted", "fresh ran", `unknown tool "lc_old"`, "Done."} {
		if !strings.Contains(stdout, want) {
			t.Errorf("transcript lacks %q:\n%s", want, stdout)
		}
	}
	id := strings.Fields(stderr)[1]
	code, stdout, stderr = cli(t, "", "log", "--json", "--store", dir, id)
	if code != 0 || !strings.Contains(stdout, `"tools_changed"`) {
		t.Errorf("log: exit %d, want a tools_changed record:\n%s%s", code, stdout, stderr)
	}
	code, stdout, _ = cli(t, "", "replay", "--store", dir, id)
	if code != 0 || !strings.HasPrefix(stdout, "replay verified: ") {
		t.Errorf("replay: exit %d %q", code, stdout)
	}
}
