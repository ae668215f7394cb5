package mcp_test

import (
	"fmt"
	"os"
	"path/filepath"
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/batonrt/baton/contract"
	"github.com/batonrt/baton/dispatch"
	"github.com/batonrt/baton/dispatch/mcp"
)

// TestCommandSurroundings: a command gets the arguments, the
// environment and the working folder its Server gives, spaces and
// quotes in an argument kept, and so does each run of it after a
// restart; with InheritEnv it inherits the host's environment
// (TestCommandEnvironment has the rest).
func TestCommandSurroundings(t *testing.T) {
	t.Setenv("BATON_MCP_TEST_VALUE", "from the host")
	dir := t.TempDir()
	dir, err := filepath.EvalSymlinks(dir)
	if err != nil {
		t.Fatal(err)
	}
	wd, err := os.Getwd()
	if err != nil {
		t.Fatal(err)
	}
	arg := `two words and "quotes"`
	tests := []struct {
		name    string
		env     []string
		inherit bool
		dir     string
		want    string
	}{
		{"inherited", nil, true, "", fmt.Sprintf("env=%q dir=%q args=%q", "from the host", wd, []string{"-test.run=^$", arg})},
		{"given", []string{"BATON_MCP_TEST_VALUE=given"}, false, dir, fmt.Sprintf("env=%q dir=%q args=%q", "given", dir, []string{"-test.run=^$", arg})},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			var log logBuffer
			tools := everything(t, mcp.Server{Name: "s", Command: append(stdioServer(t), arg), Env: tt.env, InheritEnv: tt.inherit, Dir: tt.dir, Logger: log.logger()})
			got := call(t, tools, dispatch.Options{}, "surroundings", `{}`).Outcome
			if diff := cmp.Diff(contract.ToolOutcome{Content: tt.want}, got); diff != "" {
				t.Errorf("first run (-want +got):\n%s", diff)
			}
			call(t, tools, dispatch.Options{}, "crash", `{}`)
			got = call(t, tools, dispatch.Options{}, "surroundings", `{}`).Outcome
			if diff := cmp.Diff(contract.ToolOutcome{Content: tt.want}, got); diff != "" {
				t.Errorf("run after a restart (-want +got):\n%s\nlog:\n%s", diff, log.String())
			}
		})
	}
}
