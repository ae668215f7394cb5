package mcp_test

import (
	"context"
	"encoding/json"
	"errors"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/batonrt/baton/dispatch"
	"github.com/batonrt/baton/dispatch/mcp"
)

// callAsync calls the tool on a goroutine of its own and returns where
// its error comes.
func callAsync(ctx context.Context, tl dispatch.Tool, args string) <-chan error {
	errc := make(chan error, 1)
	go func() {
		_, err := tl.Call(ctx, json.RawMessage(args))
		errc <- err
	}()
	return errc
}

// awaitErr waits for a call's error; the bound only stops a broken test
// hanging.
func awaitErr(t *testing.T, errc <-chan error) error {
	t.Helper()
	select {
	case err := <-errc:
		return err
	case <-time.After(30 * time.Second):
		t.Fatal("the call never returned after its context ended")
		return nil
	}
}

// TestCancelledStdioCallNotifiesTheServer: a call of a server over stdio
// that never answers returns when its context ends, and the server is
// sent notifications/cancelled naming the call's request, as the MCP
// specification asks, so that it can stop working for no one.
func TestCancelledStdioCallNotifiesTheServer(t *testing.T) {
	log := filepath.Join(t.TempDir(), "read.log")
	src := connect(t, mcp.Server{Name: "raw", Command: rawStdioServer(t, log, false)})
	tools, err := src.Tools(context.Background())
	if err != nil {
		t.Fatal(err)
	}
	ctx, cancel := context.WithCancel(context.Background())
	errc := callAsync(ctx, tools[0], `{}`)
	var id json.RawMessage
	waitFor(t, "the call to reach the server", func() bool {
		id = requestID(t, log, "tools/call")
		return id != nil
	})
	cancel()
	if err := awaitErr(t, errc); !errors.Is(err, context.Canceled) {
		t.Errorf("cancelled call: %v, want context.Canceled", err)
	}
	waitFor(t, "notifications/cancelled for request "+string(id), func() bool {
		for _, m := range readLog(t, log) {
			if m.Method == "notifications/cancelled" && string(m.Params.RequestID) == string(id) {
				return true
			}
		}
		return false
	})
}

// TestStalledServerThatStopsReading: a server that stops reading its
// stdin (stuck in a handler on its only thread) lets the pipe fill, and
// a call whose request does not fit still returns when its context
// ends, rather than wait in the write until the server is closed; the
// server is still closed cleanly after.
func TestStalledServerThatStopsReading(t *testing.T) {
	log := filepath.Join(t.TempDir(), "read.log")
	src := connect(t, mcp.Server{Name: "deaf", Command: rawStdioServer(t, log, true)})
	tools, err := src.Tools(context.Background())
	if err != nil {
		t.Fatal(err)
	}
	ctx, cancel := context.WithTimeout(context.Background(), 500*time.Millisecond)
	defer cancel()
	big := `{"text":"` + strings.Repeat("x", 4<<20) + `"}`
	if err := awaitErr(t, callAsync(ctx, tools[0], big)); !errors.Is(err, context.DeadlineExceeded) {
		t.Errorf("call past its deadline: %v, want context.DeadlineExceeded", err)
	}
	if err := src.Close(); err != nil {
		t.Logf("close: %v", err)
	}
}

// logged is a message the raw server read.
type logged struct {
	ID     json.RawMessage `json:"id"`
	Method string          `json:"method"`
	Params struct {
		RequestID json.RawMessage `json:"requestId"`
	} `json:"params"`
}

func readLog(t *testing.T, path string) []logged {
	t.Helper()
	b, err := os.ReadFile(path)
	if err != nil && !errors.Is(err, os.ErrNotExist) {
		t.Fatal(err)
	}
	var out []logged
	for line := range strings.Lines(string(b)) {
		var m logged
		if json.Unmarshal([]byte(line), &m) == nil {
			out = append(out, m)
		}
	}
	return out
}

// requestID is the id of the first request of method the server read,
// or nil.
func requestID(t *testing.T, path, method string) json.RawMessage {
	t.Helper()
	for _, m := range readLog(t, path) {
		if m.Method == method {
			return m.ID
		}
	}
	return nil
}
