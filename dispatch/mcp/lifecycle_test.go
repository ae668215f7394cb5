package mcp_test

import (
	"context"
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"sync/atomic"
	"syscall"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"
	sdk "github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/batonrt/baton/dispatch"
	"github.com/batonrt/baton/dispatch/mcp"
)

// TestFilesystem writes a file through the filesystem server and reads it
// back, and sees the server refuse a path outside its root as an error
// result.
func TestFilesystem(t *testing.T) {
	bin := serverBin(t, "mcp-server-filesystem")
	root, _ := filepath.EvalSymlinks(t.TempDir())
	tools := everything(t, mcp.Server{Name: "fs", Command: []string{bin, root}, Prefix: "fs_"})
	path := filepath.Join(root, "note.txt")
	o := call(t, tools, dispatch.Options{}, "fs_write_file", `{"path":"`+path+`","content":"kept"}`)
	if o.Outcome.IsError {
		t.Fatalf("write: %+v", o.Outcome)
	}
	if b, err := os.ReadFile(path); err != nil || string(b) != "kept" {
		t.Fatalf("file holds %q, %v", b, err)
	}
	o = call(t, tools, dispatch.Options{}, "fs_read_text_file", `{"path":"`+path+`"}`)
	if o.Outcome.IsError || !strings.Contains(o.Outcome.Content, "kept") {
		t.Errorf("read: %+v", o.Outcome)
	}
	o = call(t, tools, dispatch.Options{}, "fs_read_text_file", `{"path":"/etc/hostname"}`)
	if !o.Outcome.IsError {
		t.Errorf("outside the root: %+v, want an error result", o.Outcome)
	}
}

// TestKilledServer: the reference server from npm, killed through the
// shell that started it, is started again by the next call, whose
// result comes from the new server; one that may not be started again
// gives error results, not a stuck call, and its next listing reports
// it. Either way a log line says the server ended.
func TestKilledServer(t *testing.T) {
	bin := serverBin(t, "mcp-server-everything")
	tests := []struct {
		name        string
		maxRestarts int
		want        string
		listErr     bool
	}{
		{"started again", 0, "Echo: hi", false},
		{"never started again", -1, `server "ev" is gone`, true},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			pidFile := filepath.Join(t.TempDir(), "pid")
			var log logBuffer
			src := connect(t, mcp.Server{Name: "ev", Command: []string{"sh", "-c", `echo $$ > "$0"; exec "$1" stdio`, pidFile, bin}, Logger: log.logger(), MaxRestarts: tt.maxRestarts})
			tools, err := src.Tools(context.Background())
			if err != nil {
				t.Fatal(err)
			}
			b, err := os.ReadFile(pidFile)
			if err != nil {
				t.Fatal(err)
			}
			pid, _ := strconv.Atoi(strings.TrimSpace(string(b)))
			if err := syscall.Kill(pid, syscall.SIGKILL); err != nil {
				t.Fatal(err)
			}
			waitFor(t, "the log line", func() bool { return strings.Contains(log.String(), "server connection ended") })
			o := call(t, tools, dispatch.Options{}, "echo", `{"message":"hi"}`)
			if o.Outcome.IsError == (tt.want == "Echo: hi") || !strings.Contains(o.Outcome.Content, tt.want) {
				t.Errorf("outcome %+v, want %q", o.Outcome, tt.want)
			}
			if _, err := src.Tools(context.Background()); (err != nil) != tt.listErr {
				t.Errorf("listing after the kill: %v, want an error: %v", err, tt.listErr)
			}
		})
	}
}

// TestToolListChanges: tools a server adds after the first listing, and
// announces, are in the next listing; the header reaches the server.
func TestToolListChanges(t *testing.T) {
	server := sdk.NewServer(&sdk.Implementation{Name: "grows"}, nil)
	type in struct {
		N int `json:"n"`
	}
	addTool := func(name string) {
		sdk.AddTool(server, &sdk.Tool{Name: name, Description: "adds one"}, func(_ context.Context, _ *sdk.CallToolRequest, a in) (*sdk.CallToolResult, struct{}, error) {
			return &sdk.CallToolResult{Content: []sdk.Content{&sdk.TextContent{Text: strconv.Itoa(a.N + 1)}}}, struct{}{}, nil
		})
	}
	addTool("first")
	var badHeader atomic.Int32
	handler := sdk.NewStreamableHTTPHandler(func(*http.Request) *sdk.Server { return server }, nil)
	ts := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if r.Header.Get("Authorization") != "Bearer t" {
			badHeader.Add(1)
		}
		handler.ServeHTTP(w, r)
	}))
	defer ts.Close()
	src := connect(t, mcp.Server{Name: "grows", URL: ts.URL, Header: http.Header{"Authorization": {"Bearer t"}}})
	tools, err := src.Tools(context.Background())
	if err != nil {
		t.Fatal(err)
	}
	if diff := cmp.Diff([]string{"first"}, names(tools)); diff != "" {
		t.Fatalf("first listing mismatch (-want +got):\n%s", diff)
	}
	addTool("second")
	waitFor(t, "the second tool", func() bool {
		tools, err = src.Tools(context.Background())
		return err == nil && slices.Contains(names(tools), "second")
	})
	if o := call(t, tools, dispatch.Options{}, "second", `{"n":41}`); o.Outcome.Content != "42" {
		t.Errorf("outcome %+v", o.Outcome)
	}
	if n := badHeader.Load(); n > 0 {
		t.Errorf("%d requests without the header", n)
	}
	src.Close()
}

// TestCancellationReachesTheServer: cancelling a call (as an abort or a
// timeout does) cancels the handler on the server.
func TestCancellationReachesTheServer(t *testing.T) {
	server := sdk.NewServer(&sdk.Implementation{Name: "slow"}, nil)
	started, cancelled := make(chan struct{}), make(chan struct{})
	sdk.AddTool(server, &sdk.Tool{Name: "wait"}, func(ctx context.Context, _ *sdk.CallToolRequest, _ struct{}) (*sdk.CallToolResult, struct{}, error) {
		close(started)
		<-ctx.Done()
		close(cancelled)
		return nil, struct{}{}, ctx.Err()
	})
	ts := httptest.NewServer(sdk.NewStreamableHTTPHandler(func(*http.Request) *sdk.Server { return server }, nil))
	defer ts.Close()
	src := connect(t, mcp.Server{Name: "slow", URL: ts.URL})
	tools, err := src.Tools(context.Background())
	if err != nil {
		t.Fatal(err)
	}
	ctx, cancel := context.WithCancel(context.Background())
	errc := make(chan error, 1)
	go func() {
		_, err := tools[0].Call(ctx, []byte(`{}`))
		errc <- err
	}()
	select {
	case <-started:
	case <-time.After(20 * time.Second):
		t.Fatal("the call never reached the server")
	}
	cancel()
	if err := <-errc; err == nil {
		t.Error("a cancelled call returned no error")
	}
	waitFor(t, "the server's handler to be cancelled", func() bool {
		select {
		case <-cancelled:
			return true
		default:
			return false
		}
	})
	src.Close()
}
