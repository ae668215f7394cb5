package mcp_test

import (
	"bytes"
	"context"
	"log/slog"
	"net"
	"net/http"
	"net/http/httptest"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"sync"
	"testing"
	"time"

	sdk "github.com/modelcontextprotocol/go-sdk/mcp"
	"go.uber.org/goleak"

	"github.com/batonrt/baton/dispatch/mcp"
)

func TestMain(m *testing.M) {
	if os.Getenv(stdioServerEnv) == rawServer {
		serveRaw()
		return
	}
	if os.Getenv(stdioServerEnv) != "" {
		serveStdio()
		return
	}
	goleak.VerifyTestMain(m)
}

// serverBin returns the path of an npm-installed server's entry point.
// The servers are pinned in testdata/servers/package-lock.json; without
// them the test skips, except under CI, which installs them.
func serverBin(t *testing.T, name string) string {
	t.Helper()
	bin, _ := filepath.Abs(filepath.Join("testdata", "servers", "node_modules", ".bin", name))
	_, err := os.Stat(bin)
	if _, nodeErr := exec.LookPath("node"); err != nil || nodeErr != nil {
		if os.Getenv("CI") != "" {
			t.Fatalf("%s or node missing under CI: .ci/run installs them", name)
		}
		t.Skipf("needs node and the pinned servers: npm ci --prefix dispatch/mcp/testdata/servers")
	}
	return bin
}

// logBuffer is a logger whose lines a test can read.
type logBuffer struct {
	mu  sync.Mutex
	buf bytes.Buffer
}

func (l *logBuffer) Write(p []byte) (int, error) {
	l.mu.Lock()
	defer l.mu.Unlock()
	return l.buf.Write(p)
}

func (l *logBuffer) String() string {
	l.mu.Lock()
	defer l.mu.Unlock()
	return l.buf.String()
}

func (l *logBuffer) logger() *slog.Logger { return slog.New(slog.NewTextHandler(l, nil)) }

// connect connects srv and closes it when the test ends.
func connect(t *testing.T, srv mcp.Server) *mcp.Source {
	t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
	defer cancel()
	src, err := mcp.Connect(ctx, srv)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { src.Close() })
	return src
}

// serveHTTP serves server over streamable HTTP on loopback until the
// test ends, after the connections connect made, and returns its URL.
func serveHTTP(t *testing.T, server *sdk.Server) string {
	t.Helper()
	ts := httptest.NewServer(sdk.NewStreamableHTTPHandler(func(*http.Request) *sdk.Server { return server }, nil))
	t.Cleanup(ts.Close)
	return ts.URL
}

// freePort returns a loopback port nothing listens on.
func freePort(t *testing.T) string {
	t.Helper()
	l, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	defer l.Close()
	return strconv.Itoa(l.Addr().(*net.TCPAddr).Port)
}

// waitFor polls cond for up to 20s; it only stops a broken test hanging.
func waitFor(t *testing.T, what string, cond func() bool) {
	t.Helper()
	for deadline := time.Now().Add(20 * time.Second); time.Now().Before(deadline); time.Sleep(50 * time.Millisecond) {
		if cond() {
			return
		}
	}
	t.Fatalf("timed out waiting for %s", what)
}
