package mcp_test

import (
	"strings"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"

	"github.com/batonrt/baton/contract"
	"github.com/batonrt/baton/dispatch"
	"github.com/batonrt/baton/dispatch/mcp"
)

// TestLinesThatAreNoMessagesAreSkipped: a server over stdio that prints
// a banner, or a debug line mid-call, to its stdout breaks the rule that
// only messages go there, but many do. The line is skipped with a
// warning naming it; the handshake, the call in flight and the server
// itself carry on.
func TestLinesThatAreNoMessagesAreSkipped(t *testing.T) {
	var logs logBuffer
	tools := everything(t, mcp.Server{Name: "noisy", Command: noisyStdioServer(t), Timeout: 20 * time.Second, Logger: logs.logger()})
	pid := call(t, tools, dispatch.Options{}, "pid", `{}`).Outcome
	if pid.IsError {
		t.Fatalf("pid: %+v", pid)
	}
	for range 2 {
		got := call(t, tools, dispatch.Options{}, "noise", `{}`).Outcome
		if diff := cmp.Diff(contract.ToolOutcome{Content: "answered"}, got); diff != "" {
			t.Errorf("noise mismatch (-want +got):\n%s\nlog:\n%s", diff, logs.String())
		}
	}
	if got := call(t, tools, dispatch.Options{}, "pid", `{}`).Outcome; got != pid {
		t.Errorf("pid after the noise %+v, want %+v: the server was started again\nlog:\n%s", got, pid, logs.String())
	}
	for _, line := range []string{"stdio-test 1.0 listening on stdin", "DEBUG noise: answering"} {
		if !strings.Contains(logs.String(), line) {
			t.Errorf("no warning names the line %q; log:\n%s", line, logs.String())
		}
	}
}
