package main

import (
	"encoding/json"
	"os"
	"strings"
	"testing"

	"github.com/batonrt/baton/ledger"
)

// TestRunMCPEnv: a stdio server gets the host's safe variables and what
// --mcp-env gives it, not the rest of baton's environment, where model
// keys live; --mcp-env NAME hands on baton's own value of NAME.
func TestRunMCPEnv(t *testing.T) {
	home := isolate(t)
	bin := everythingBin(t)
	t.Setenv("BATON_TEST_SECRET", "sk-host-secret")
	t.Setenv("BATON_TEST_PASSED", "passed on")
	script := `{"replies": [
	  {"tool_calls": [{"id": "c1", "name": "ev_get-env", "arguments": {}}]},
	  {"text": "Done."}
	]}`
	args := []string{"run", "--json", "--provider", "scripted", "--script", writeScript(t, script), "--store", t.TempDir(), "--workspace", t.TempDir(),
		"--mcp-trusted", "ev=" + bin + " stdio", "--mcp-env", "BATON_TEST_GIVEN=given value", "--mcp-env", "BATON_TEST_PASSED", "call", "it"}
	code, stdout, stderr := cli(t, "", args...)
	if code != 0 {
		t.Fatalf("exit %d: %s", code, stderr)
	}
	var env map[string]string
	for ev, err := range ledger.ReadJSONL(strings.NewReader(stdout)) {
		if err != nil {
			t.Fatalf("%v in:\n%s", err, stdout)
		}
		if ev.Result != nil && ev.Result.Name == "ev_get-env" {
			if err := json.Unmarshal([]byte(ev.Result.Content), &env); err != nil {
				t.Fatalf("ev_get-env answered %q: %v", ev.Result.Content, err)
			}
		}
	}
	want := map[string]string{"BATON_TEST_GIVEN": "given value", "BATON_TEST_PASSED": "passed on", "HOME": home, "PATH": os.Getenv("PATH")}
	for name, v := range want {
		if env[name] != v {
			t.Errorf("the server's %s is %q, want %q", name, env[name], v)
		}
	}
	if v, ok := env["BATON_TEST_SECRET"]; ok {
		t.Errorf("the server was handed baton's whole environment: BATON_TEST_SECRET=%q", v)
	}
}

func TestRunMCPEnvBadFlag(t *testing.T) {
	isolate(t)
	tests := []struct {
		name  string
		flags []string
		want  string
	}{
		{"no server before it", []string{"--mcp-env", "A=b", "--mcp", "fs=/no/such/server"},
			`baton: invalid value "A=b" for flag -mcp-env: no --mcp or --mcp-trusted before it to give it to`},
		{"a server over HTTP", []string{"--mcp", "web=https://example.com/mcp", "--mcp-env", "A=b"},
			`baton: invalid value "A=b" for flag -mcp-env: server "web" is reached over HTTP and has no environment`},
		{"no name", []string{"--mcp", "fs=/no/such/server", "--mcp-env", "=b"},
			`baton: invalid value "=b" for flag -mcp-env: not NAME=VALUE or NAME`},
		{"not set", []string{"--mcp", "fs=/no/such/server", "--mcp-env", "BATON_TEST_NEVER_SET"},
			`baton: invalid value "BATON_TEST_NEVER_SET" for flag -mcp-env: BATON_TEST_NEVER_SET is not set in baton's environment`},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			code, _, stderr := cli(t, "", append(append([]string{"run", "--provider", "scripted"}, tt.flags...), "hi")...)
			if code != 2 || !strings.HasPrefix(stderr, tt.want+"\n") {
				t.Errorf("exit %d, stderr %q, want %q", code, stderr, tt.want)
			}
		})
	}
}
