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

// TestJSONLogLinesAreSkipped: a server whose structured logger writes
// its lines as JSON objects to stdout (pino, structlog) puts lines there
// that look like messages but are none, which the SDK takes for broken
// messages and ends the connection at. A whole line that is a JSON
// object without the "jsonrpc" member every message has is skipped with
// a warning, at start and mid-call, and the server carries on.
func TestJSONLogLinesAreSkipped(t *testing.T) {
	bin := serverBin(t, "mcp-server-everything")
	var logs logBuffer
	banner := `{"level":30,"msg":"starting"}`
	tools := everything(t, mcp.Server{Name: "ev", Command: []string{"sh", "-c", "echo '" + banner + "'; exec \"$0\" stdio", bin}, Timeout: 20 * time.Second, Logger: logs.logger()})
	if got := call(t, tools, dispatch.Options{}, "echo", `{"message":"hi"}`).Outcome; got.IsError || got.Content != "Echo: hi" {
		t.Errorf("echo after a JSON banner: %+v\nlog:\n%s", got, logs.String())
	}
	if !strings.Contains(logs.String(), `"level\":30`) {
		t.Errorf("no warning names the banner; log:\n%s", logs.String())
	}

	logs = logBuffer{}
	tools = everything(t, mcp.Server{Name: "noisy", Command: noisyStdioServer(t), Timeout: 20 * time.Second, Logger: logs.logger()})
	pid := call(t, tools, dispatch.Options{}, "pid", `{}`).Outcome
	for range 2 {
		got := call(t, tools, dispatch.Options{}, "jsonlog", `{}`).Outcome
		if diff := cmp.Diff(contract.ToolOutcome{Content: "logged"}, got); diff != "" {
			t.Errorf("jsonlog mismatch (-want +got):\n%s\nlog:\n%s", diff, logs.String())
		}
	}
	if got := call(t, tools, dispatch.Options{}, "pid", `{}`).Outcome; got != pid {
		t.Errorf("pid after the log lines %+v, want %+v: the server was started again\nlog:\n%s", got, pid, logs.String())
	}
	if !strings.Contains(logs.String(), `\"msg\":\"answering\"`) {
		t.Errorf("no warning names the log line; log:\n%s", logs.String())
	}
}
