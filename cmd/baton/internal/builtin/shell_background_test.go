package builtin

import (
	"strings"
	"testing"
	"time"
)

// TestShellLeavesNoBackgroundJob: a line that puts a job in the
// background and exits (sleep 30 &) neither fails with exec's
// "WaitDelay expired" nor leaves the job running after the call, and
// after baton exits.
func TestShellLeavesNoBackgroundJob(t *testing.T) {
	needProc(t)
	root := t.TempDir()
	_, tools := open(t, Options{Root: root, AllowShell: true, ShellTimeout: 2 * time.Second})
	out, err := call(t, tools["shell"], map[string]string{"command": "sleep 30 & echo $! > pid; echo started"})
	if err != nil {
		t.Fatal(err)
	}
	if out.IsError || !strings.HasPrefix(out.Content, "started") {
		t.Errorf("outcome %+v, want the line's output", out)
	}
	if s, alive := outlives(t, root, time.Second); alive {
		t.Fatalf("the line's background sleep still runs after the call returned: %s", s)
	}
}
