package mcp_test

import (
	"encoding/json"
	"maps"
	"os"
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/batonrt/baton/dispatch"
	"github.com/batonrt/baton/dispatch/mcp"
)

// TestCommandEnvironment: a command started with no Env gets only the
// host's variables that are safe to hand any program (PATH, HOME, TERM
// and the like, a value that looks like a shell function left out), not
// the host's keys; an Env's entries are put over that default;
// InheritEnv hands over the host's whole environment. Each start of the
// command reads the host's environment again, so the run after a
// restart sees a change.
func TestCommandEnvironment(t *testing.T) {
	t.Setenv("BATON_MCP_TEST_SECRET", "sk-host")
	t.Setenv("TERM", "xterm")
	t.Setenv("SHELL", "() { echo pwned; }")
	path := os.Getenv("PATH")
	names := []string{"BATON_MCP_TEST_SECRET", "HOME", "PATH", "SHELL", "TERM", "BATON_MCP_TEST_EXTRA"}
	given := []string{"BATON_MCP_TEST_SECRET=given", "HOME=/home/given", "BATON_MCP_TEST_EXTRA=extra"}
	tests := []struct {
		name    string
		env     []string
		inherit bool
		want    map[string]string
	}{
		{"default", nil, false, map[string]string{"HOME": "/home/before", "PATH": path, "TERM": "xterm"}},
		{"empty", []string{}, false, map[string]string{"HOME": "/home/before", "PATH": path, "TERM": "xterm"}},
		{"given over the default", given, false, map[string]string{
			"BATON_MCP_TEST_SECRET": "given", "HOME": "/home/given", "PATH": path, "TERM": "xterm", "BATON_MCP_TEST_EXTRA": "extra",
		}},
		{"inherited", nil, true, map[string]string{
			"BATON_MCP_TEST_SECRET": "sk-host", "HOME": "/home/before", "PATH": path, "SHELL": "() { echo pwned; }", "TERM": "xterm",
		}},
		{"given over the inherited", given, true, map[string]string{
			"BATON_MCP_TEST_SECRET": "given", "HOME": "/home/given", "PATH": path, "SHELL": "() { echo pwned; }", "TERM": "xterm", "BATON_MCP_TEST_EXTRA": "extra",
		}},
	}
	args, err := json.Marshal(map[string][]string{"names": names})
	if err != nil {
		t.Fatal(err)
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			t.Setenv("HOME", "/home/before")
			var log logBuffer
			tools := everything(t, mcp.Server{Name: "s", Command: stdioServer(t), Env: tt.env, InheritEnv: tt.inherit, Logger: log.logger()})
			if diff := cmp.Diff(tt.want, environment(t, tools, string(args))); diff != "" {
				t.Errorf("first run (-want +got):\n%s", diff)
			}
			t.Setenv("HOME", "/home/after")
			want := maps.Clone(tt.want)
			if want["HOME"] == "/home/before" {
				want["HOME"] = "/home/after"
			}
			call(t, tools, dispatch.Options{}, "crash", `{}`)
			if diff := cmp.Diff(want, environment(t, tools, string(args))); diff != "" {
				t.Errorf("run after a restart (-want +got):\n%s\nlog:\n%s", diff, log.String())
			}
		})
	}
}

// environment calls the test server's tool environment and decodes its
// answer.
func environment(t *testing.T, tools []dispatch.Tool, args string) map[string]string {
	t.Helper()
	o := call(t, tools, dispatch.Options{}, "environment", args).Outcome
	if o.IsError {
		t.Fatalf("environment: %s", o.Content)
	}
	var got map[string]string
	if err := json.Unmarshal([]byte(o.Content), &got); err != nil {
		t.Fatalf("environment answered %q: %v", o.Content, err)
	}
	return got
}
