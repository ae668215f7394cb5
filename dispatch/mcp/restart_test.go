package mcp_test

import (
	"context"
	"errors"
	"os"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"sync"
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
	pid := killPid(t, tools)
	waitFor(t, "the log line", func() bool { return strings.Contains(log.String(), "server connection ended") })
	return pid
}

// killPid asks the server whose tools are tools for its pid, kills it
// with SIGKILL and returns the pid.
func killPid(t *testing.T, tools []dispatch.Tool) string {
	t.Helper()
	o := call(t, tools, dispatch.Options{}, "pid", `{}`)
	pid, err := strconv.Atoi(o.Outcome.Content)
	if err != nil {
		t.Fatalf("pid: %+v", o.Outcome)
	}
	if err := syscall.Kill(pid, syscall.SIGKILL); err != nil {
		t.Fatal(err)
	}
	return o.Outcome.Content
}

// connectAndKill connects srv, lists its tools, kills the server (whose
// tools must include pid) and waits until the source has seen it go;
// before is the killed server's pid.
func connectAndKill(t *testing.T, srv mcp.Server) (src *mcp.Source, tools []dispatch.Tool, before string) {
	t.Helper()
	var log logBuffer
	srv.Logger = log.logger()
	src = connect(t, srv)
	tools, err := src.Tools(context.Background())
	if err != nil {
		t.Fatal(err)
	}
	return src, tools, killServer(t, tools, &log)
}

// TestKilledServerStartsAgain: a stdio server killed between two calls
// is started again by the second call, which then succeeds, on the tools
// the host listed before the kill.
func TestKilledServerStartsAgain(t *testing.T) {
	src, tools, before := connectAndKill(t, mcp.Server{Name: "pids", Command: stdioServer(t)})
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

// slowRestartServer returns the command of a stdio server that, started
// again, first sleeps for secs seconds.
func slowRestartServer(t *testing.T, secs string) []string {
	t.Helper()
	started := filepath.Join(t.TempDir(), "started")
	script := `if [ -e "$0" ]; then sleep ` + secs + `; fi; touch "$0"; exec "$@"`
	return append([]string{"sh", "-c", script, started}, stdioServer(t)...)
}

// callPid calls the tool pid directly, bounded by timeout, and says how
// long the call took.
func callPid(tools []dispatch.Tool, timeout time.Duration) (string, time.Duration, error) {
	ctx, cancel := context.WithTimeout(context.Background(), timeout)
	defer cancel()
	start := time.Now()
	for _, tl := range tools {
		if tl.Descriptor().Name == "pid" {
			o, err := tl.Call(ctx, []byte(`{}`))
			return o.Content, time.Since(start), err
		}
	}
	return "", 0, errors.New("no tool pid")
}

// TestImpatientCallDoesNotUseUpRestarts: a call that gives up while the
// server it started again is still starting does not stop that start
// nor count it as failed: the next call gets the server.
func TestImpatientCallDoesNotUseUpRestarts(t *testing.T) {
	_, tools, before := connectAndKill(t, mcp.Server{Name: "slow", Command: slowRestartServer(t, "1"), MaxRestarts: 1})
	if _, _, err := callPid(tools, 200*time.Millisecond); !errors.Is(err, context.DeadlineExceeded) {
		t.Fatalf("the impatient call: %v, want it to time out", err)
	}
	o := call(t, tools, dispatch.Options{}, "pid", `{}`)
	if o.Outcome.IsError || o.Outcome.Content == before {
		t.Errorf("the call after: %+v, want the pid of a new server (the old was %s)", o.Outcome, before)
	}
}

// TestHungRestartHoldsNoCall: while a restart hangs, each call waiting
// for it returns at its own timeout, and Close stops the restart.
func TestHungRestartHoldsNoCall(t *testing.T) {
	src, tools, _ := connectAndKill(t, mcp.Server{Name: "hung", Command: slowRestartServer(t, "30")})
	const timeout = 300 * time.Millisecond
	var wg sync.WaitGroup
	took := make([]time.Duration, 3)
	errs := make([]error, 3)
	for i := range took {
		wg.Go(func() { _, took[i], errs[i] = callPid(tools, timeout) })
	}
	wg.Wait()
	for i := range took {
		if !errors.Is(errs[i], context.DeadlineExceeded) || took[i] > timeout+time.Second {
			t.Errorf("call %d: %v after %v, want a timeout after %v", i+1, errs[i], took[i], timeout)
		}
	}
	start := time.Now()
	src.Close()
	if d := time.Since(start); d > 10*time.Second {
		t.Errorf("Close took %v", d)
	}
}

// TestCallsRacingARestart: calls that find the server gone together are
// served by one new run of it.
func TestCallsRacingARestart(t *testing.T) {
	_, tools, before := connectAndKill(t, mcp.Server{Name: "pids", Command: stdioServer(t)})
	pids := make([]string, 4)
	errs := make([]error, 4)
	var wg sync.WaitGroup
	for i := range pids {
		wg.Go(func() { pids[i], _, errs[i] = callPid(tools, 20*time.Second) })
	}
	wg.Wait()
	if err := errors.Join(errs...); err != nil {
		t.Fatal(err)
	}
	if pids[0] == before || slices.ContainsFunc(pids, func(p string) bool { return p != pids[0] }) {
		t.Errorf("pids %v after the kill of %s, want one new server for all", pids, before)
	}
}

// TestEndAfterLastRestartIsLoggedAsFinal: the log line of a server that
// ends after its last allowed restart says it is not started again, and
// why, rather than that the next call starts it.
func TestEndAfterLastRestartIsLoggedAsFinal(t *testing.T) {
	var log logBuffer
	src := connect(t, mcp.Server{Name: "once", Command: stdioServer(t), Logger: log.logger(), MaxRestarts: 1, RestartWindow: time.Minute})
	tools, err := src.Tools(context.Background())
	if err != nil {
		t.Fatal(err)
	}
	killServer(t, tools, &log)
	// The call after the kill starts the server again, the one restart
	// allowed; killing that one leaves none.
	killPid(t, tools)
	ended := func() []string {
		var lines []string
		for line := range strings.Lines(log.String()) {
			if strings.Contains(line, "server connection ended") {
				lines = append(lines, line)
			}
		}
		return lines
	}
	waitFor(t, "the second end's log line", func() bool { return len(ended()) == 2 })
	lines := ended()
	if !strings.Contains(lines[0], "the next call starts it again") {
		t.Errorf("first end: %q, want it to say the next call starts the server again", lines[0])
	}
	for _, want := range []string{"not started again", "restarted 1 times within 1m0s, the most allowed", "until a call after ", "s starts it again"} {
		if !strings.Contains(lines[1], want) {
			t.Errorf("second end: %q, want %q", lines[1], want)
		}
	}
	if strings.Contains(lines[1], "the next call starts it again") {
		t.Errorf("second end: %q says the next call starts the server again", lines[1])
	}
	if o := call(t, tools, dispatch.Options{}, "pid", `{}`); !strings.Contains(o.Outcome.Content, `server "once" is not started again`) {
		t.Errorf("call after the second end: %+v, want it not started again", o.Outcome)
	}
}
