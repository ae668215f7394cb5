package main

import (
	"strings"
	"testing"
)

// serve takes --max-turns, --temperature and --context-window as run does: each thread's
// runs are capped and sampled as the flags say, recorded with the run.
func TestServeRunConfigFlags(t *testing.T) {
	skipShort(t, "starts a serve process")
	isolate(t)
	dir := t.TempDir()
	script := writeScript(t, `{"replies":[{"tool_calls":[{"name":"list_files","arguments":"{}"}]},{"text":"never asked for"}]}`)
	n := startNode(t, "--provider", "scripted", "--script", script, "--store", dir, "--workspace", t.TempDir(), "--max-turns", "1", "--temperature", "0.5", "--context-window", "5000")
	status, body := n.post(t, "t1", "m1", "look")
	if status != 200 || !strings.Contains(body, "RUN_ERROR") || !strings.Contains(body, "reached the cap of 1 model calls") {
		t.Errorf("post: %d, want a run failing at the cap of 1 model call:\n%s", status, body)
	}
	_ = n.cmd.Process.Kill()
	_ = n.cmd.Wait()
	code, stdout, stderr := cli(t, "", "export", "--store", dir)
	if code != exitOK || !strings.Contains(stdout, `"max_turns":1,`) || !strings.Contains(stdout, `"sampling":{"temperature":0.5}`) || !strings.Contains(stdout, `"context_window":5000`) {
		t.Errorf("export: exit %d, stderr %q; the recorded config lacks max_turns 1, temperature 0.5 or context_window 5000:\n%s", code, stderr, stdout)
	}
	for _, args := range [][]string{{"--max-turns", "0"}, {"--temperature", "3"}} {
		code, _, stderr := cli(t, "", append([]string{"serve", "--provider", "scripted", "--script", script, "--store", dir}, args...)...)
		if code != exitUsage || !strings.Contains(stderr, strings.TrimPrefix(args[0], "-")) {
			t.Errorf("serve %v: exit %d, stderr %q", args, code, stderr)
		}
	}
}
