package mcp_test

import (
	"context"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/batonrt/baton/dispatch"
	"github.com/batonrt/baton/dispatch/mcp"
)

// killServer kills the server whose tools are tools with SIGKILL, as the
// out-of-memory killer would, and waits until the source has seen it go.
func killServer(t *testing.T, tools []dispatch.Tool, log *logBuffer) string {
	t.Helper()
	o := call(t, tools, dispatch.Options{}, "pid", `{}`)
	pid, err := strconv.Atoi(o.Outcome.Content)
	if err != nil {
		t.Fatalf("pid: %+v", o.Outcome)
	}
	if err := syscall.Kill(pid, syscall.SIGKILL); err != nil {
		t.Fatal(err)
	}
	waitFor(t, "the log line", func() bool { return strings.Contains(log.String(), "server connection ended") })
	return o.Outcome.Content
}

// TestKilledServerStartsAgain: a stdio server killed between two calls
// is started again by the second call, which then succeeds, on the tools
// the host listed before the kill.
func TestKilledServerStartsAgain(t *testing.T) {
	var log logBuffer
	src := connect(t, mcp.Server{Name: "pids", Command: stdioServer(t), Logger: log.logger()})
	tools, err := src.Tools(context.Background())
	if err != nil {
		t.Fatal(err)
	}
	before := killServer(t, tools, &log)
	o := call(t, tools, dispatch.Options{}, "pid", `{}`)
	if o.Outcome.IsError || o.Outcome.Content == before {
		t.Errorf("call after the kill: %+v, want the pid of a new server (the old was %s)", o.Outcome, before)
	}
	if _, err := src.Tools(context.Background()); err != nil {
		t.Errorf("listing after the restart: %v", err)
	}
}

// TestServerThatKeepsDying: a server that, once killed, exits at every
// start is started again at most MaxRestarts times within the window;
// each failed start says how the server ended, and the call after the
// last says the server is given up on, with its last words, and starts
// nothing.
func TestServerThatKeepsDying(t *testing.T) {
	dir := t.TempDir()
	starts, started := filepath.Join(dir, "starts"), filepath.Join(dir, "started")
	script := `date +%s%N >> "$0"; if [ -e "$1" ]; then echo "licence expired" >&2; exit 4; fi; touch "$1"; shift; exec "$@"`
	var log logBuffer
	srv := mcp.Server{
		Name:          "dying",
		Command:       append([]string{"sh", "-c", script, starts, started}, stdioServer(t)...),
		Logger:        log.logger(),
		MaxRestarts:   2,
		RestartWindow: time.Minute,
	}
	src := connect(t, srv)
	tools, err := src.Tools(context.Background())
	if err != nil {
		t.Fatal(err)
	}
	killServer(t, tools, &log)
	wants := [][]string{
		{`mcp: restart "dying"`, "exit status 4", "licence expired"},
		{`mcp: restart "dying"`, "exit status 4", "licence expired"},
		{`mcp: server "dying" is not started again: it was restarted 2 times within 1m0s`, "exit status 4", "licence expired"},
		{`mcp: server "dying" is not started again`},
	}
	for i, want := range wants {
		o := call(t, tools, dispatch.Options{}, "pid", `{}`)
		for _, w := range want {
			if !o.Outcome.IsError || !strings.Contains(o.Outcome.Content, w) {
				t.Errorf("call %d: %+v, want an error result with %q", i+1, o.Outcome, w)
			}
		}
	}
	b, err := os.ReadFile(starts)
	if err != nil {
		t.Fatal(err)
	}
	var at []int64
	for line := range strings.Lines(string(b)) {
		ns, _ := strconv.ParseInt(strings.TrimSpace(line), 10, 64)
		at = append(at, ns)
	}
	if len(at) != 3 {
		t.Fatalf("the command was started %d times, want 3 (once, then restarted twice)", len(at))
	}
	if gap := time.Duration(at[2] - at[1]); gap < 250*time.Millisecond {
		t.Errorf("the second restart came %v after the first, want a backoff of 250ms at least", gap)
	}
}
