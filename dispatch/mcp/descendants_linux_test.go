package mcp_test

import (
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/batonrt/baton/dispatch/mcp"
)

// A server's command may start processes of its own (a shell wrapper, a
// launcher such as npx, a helper it forks): closing the server ends them
// too, rather than leaving one behind for each server started and, now
// that servers are started again, for each restart.
func TestClosingAServerEndsWhatItsCommandStarted(t *testing.T) {
	pidFile := filepath.Join(t.TempDir(), "helper.pid")
	script := `sleep 300 & echo $! > "$0"; exec "$@"`
	src := connect(t, mcp.Server{Name: "forks", Command: append([]string{"sh", "-c", script, pidFile}, stdioServer(t)...)})
	b, err := os.ReadFile(pidFile)
	if err != nil {
		t.Fatal(err)
	}
	pid, err := strconv.Atoi(strings.TrimSpace(string(b)))
	if err != nil {
		t.Fatal(err)
	}
	if !running(pid) {
		t.Fatalf("the helper %d is not running before the server is closed", pid)
	}
	if err := src.Close(); err != nil {
		t.Logf("close: %v", err)
	}
	for range 100 {
		if !running(pid) {
			return
		}
		time.Sleep(50 * time.Millisecond)
	}
	t.Errorf("the helper %d the server's command started still runs 5 s after the server was closed", pid)
}

// running says whether process pid exists and is not a zombie (which
// only waits for its reaper).
func running(pid int) bool {
	b, err := os.ReadFile("/proc/" + strconv.Itoa(pid) + "/stat")
	if err != nil {
		return false
	}
	// The state follows the command name, which is in parentheses.
	s := string(b)
	i := strings.LastIndexByte(s, ')')
	return i >= 0 && i+2 < len(s) && s[i+2] != 'Z'
}
