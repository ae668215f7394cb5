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
// names, and their results reach the model and the transcript. A server
// added with --mcp asks before each call, as the shell does; one added
// with --mcp-trusted does not.
func TestRunMCP(t *testing.T) {
	isolate(t)
	bin := everythingBin(t)
	script := `{"replies": [
	  {"tool_calls": [{"id": "c1", "name": "ev_echo", "arguments": {"message": "over mcp"}}, {"id": "c2", "name": "ev_get-tiny-image", "arguments": {}}]},
	  {"text": "Done."}
	]}`
	ran := []string{"Echo: over mcp", "[image image/png, ", "Done."}
	tests := []struct {
		name  string
		flags []string
		want  []string
		not   string
	}{
		{"trusted runs", []string{"--mcp-trusted", "ev=" + bin + " stdio"}, ran, ""},
		{"asks, and yes approves", []string{"--mcp", "ev=" + bin + " stdio", "--yes"}, ran, ""},
		{"asks, and no terminal denies", []string{"--mcp", "ev=" + bin + " stdio"},
			[]string{"denied #1 ev_echo: stdin is not a terminal, so nobody can approve ev_echo; run baton with --yes", "Done."}, "Echo: over mcp"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			args := append([]string{"run", "--provider", "scripted", "--script", writeScript(t, script), "--store", t.TempDir(), "--workspace", t.TempDir()}, tt.flags...)
			code, stdout, stderr := cli(t, "", append(args, "call", "it")...)
			if code != 0 {
				t.Fatalf("exit %d: %s", code, stderr)
			}
			for _, want := range tt.want {
				if !strings.Contains(stdout, want) {
					t.Errorf("transcript lacks %q:\n%s", want, stdout)
				}
			}
			if tt.not != "" && strings.Contains(stdout, tt.not) {
				t.Errorf("transcript has %q, the call ran without approval:\n%s", tt.not, stdout)
			}
		})
	}
}

func TestRunMCPBadFlag(t *testing.T) {
	isolate(t)
	code, _, stderr := cli(t, "", "run", "--provider", "scripted", "--mcp", "nothing", "hi")
	if code != 2 || !strings.Contains(stderr, `"nothing" is not NAME=COMMAND ARGS or NAME=URL`) {
		t.Errorf("exit %d: %s", code, stderr)
	}
	// Two servers of one name would be told apart by nothing in the
	// logs or the approval prompt; neither is started.
	for _, second := range []string{"--mcp", "--mcp-trusted"} {
		code, _, stderr = cli(t, "", "run", "--provider", "scripted", "--mcp", "fs=/no/such/server", second, "fs=https://example.com/mcp", "hi")
		if want := `baton: invalid value "fs=https://example.com/mcp" for flag -` + strings.TrimPrefix(second, "--") + `: server "fs" is given twice` + "\n"; code != 2 || !strings.HasPrefix(stderr, want) {
			t.Errorf("%s twice: exit %d, stderr %q, want %q", second, code, stderr, want)
		}
	}
	code, _, stderr = cli(t, "", "run", "--provider", "scripted", "--script", writeScript(t, `{"replies": [{"text": "x"}]}`), "--store", t.TempDir(), "--mcp", "gone=/no/such/server", "hi")
	if code != 1 || !strings.Contains(stderr, `mcp: connect "gone"`) {
		t.Errorf("exit %d: %s", code, stderr)
	}
}
