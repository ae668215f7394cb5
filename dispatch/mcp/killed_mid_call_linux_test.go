package mcp_test

import (
	"context"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"syscall"
	"testing"

	"github.com/batonrt/baton/dispatch/mcp"
)

// TestServerKilledMidCall: a server killed (SIGKILL) while a call waits
// on it fails that call at once with an error that says the server is
// gone and how it ended, rather than leave it to its timeout; the next
// listing starts the server again; and once the source is closed
// neither run of the command is left running or unreaped.
func TestServerKilledMidCall(t *testing.T) {
	dir := t.TempDir()
	pidFile, log := filepath.Join(dir, "pid"), filepath.Join(dir, "read.log")
	cmd := append([]string{"sh", "-c", `echo $$ > "$0"; exec "$@"`, pidFile}, rawStdioServer(t, log, false)...)
	src, err := mcp.Connect(context.Background(), mcp.Server{Name: "raw", Command: cmd})
	if err != nil {
		t.Fatal(err)
	}
	defer src.Close()
	tools, err := src.Tools(context.Background())
	if err != nil {
		t.Fatal(err)
	}
	first := readPid(t, pidFile)
	errc := callAsync(context.Background(), tools[0], `{}`)
	waitFor(t, "the call to reach the server", func() bool { return requestID(t, log, "tools/call") != nil })
	if err := syscall.Kill(first, syscall.SIGKILL); err != nil {
		t.Fatal(err)
	}
	err = awaitErr(t, errc)
	if err == nil || !strings.Contains(err.Error(), `server "raw" is gone`) || !strings.Contains(err.Error(), "killed") {
		t.Errorf("call during which the server was killed: %v, want it gone and killed", err)
	}
	if _, err := src.Tools(context.Background()); err != nil {
		t.Fatalf("listing after the kill: %v", err)
	}
	second := readPid(t, pidFile)
	if second == first {
		t.Fatal("the server was not started again")
	}
	if err := src.Close(); err != nil {
		t.Logf("close: %v", err)
	}
	for _, pid := range []int{first, second} {
		if _, err := os.Stat("/proc/" + strconv.Itoa(pid)); err == nil {
			t.Errorf("server process %d is still there after Close (running or unreaped)", pid)
		}
	}
}

func readPid(t *testing.T, path string) int {
	t.Helper()
	b, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	pid, err := strconv.Atoi(strings.TrimSpace(string(b)))
	if err != nil {
		t.Fatal(err)
	}
	return pid
}
