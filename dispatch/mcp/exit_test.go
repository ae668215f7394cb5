package mcp_test

import (
	"context"
	"strings"
	"testing"
	"time"

	"github.com/batonrt/baton/dispatch"
	"github.com/batonrt/baton/dispatch/mcp"
)

// TestServerExitSaysWhy: a stdio server that exits, at start or during a
// call, is reported with its exit status and the end of its standard
// error, not only as an EOF. The call after one that died with its
// server starts the server again.
func TestServerExitSaysWhy(t *testing.T) {
	t.Run("at start", func(t *testing.T) {
		ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
		defer cancel()
		_, err := mcp.Connect(ctx, mcp.Server{Name: "bad", Command: []string{"sh", "-c", "echo 'missing API key' >&2; exit 3"}})
		if err == nil || !strings.Contains(err.Error(), "exit status 3") || !strings.Contains(err.Error(), "missing API key") {
			t.Errorf("error %v, want the exit status and the stderr", err)
		}
	})
	t.Run("during a call", func(t *testing.T) {
		var log logBuffer
		src := connect(t, mcp.Server{Name: "crashy", Command: stdioServer(t), Logger: log.logger()})
		tools, err := src.Tools(context.Background())
		if err != nil {
			t.Fatal(err)
		}
		o := call(t, tools, dispatch.Options{}, "crash", `{}`)
		for _, want := range []string{`server "crashy" is gone`, "exit status 2", "out of cheese"} {
			if !o.Outcome.IsError || !strings.Contains(o.Outcome.Content, want) {
				t.Errorf("outcome %+v, want an error result with %q", o.Outcome, want)
			}
		}
		waitFor(t, "the log line", func() bool { return strings.Contains(log.String(), "server connection ended") })
		if !strings.Contains(log.String(), "out of cheese") {
			t.Errorf("log %q lacks the server's stderr", log.String())
		}
		if o := call(t, tools, dispatch.Options{}, "pid", `{}`); o.Outcome.IsError {
			t.Errorf("the call after: %+v, want a result from a restarted server", o.Outcome)
		}
	})
}
