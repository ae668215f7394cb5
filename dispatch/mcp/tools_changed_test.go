package mcp_test

import (
	"context"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"sync"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"
	sdk "github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/batonrt/baton/dispatch"
	"github.com/batonrt/baton/dispatch/mcp"
)

// reported collects what a Source reports through OnToolsChanged.
type reported struct {
	mu    sync.Mutex
	lists [][]string
	delay time.Duration // how long the host takes with each report
}

func (r *reported) changed(_ context.Context, tools []dispatch.Tool) {
	time.Sleep(r.delay)
	r.mu.Lock()
	r.lists = append(r.lists, names(tools))
	r.mu.Unlock()
}

func (r *reported) last() []string {
	r.mu.Lock()
	defer r.mu.Unlock()
	if len(r.lists) == 0 {
		return nil
	}
	return r.lists[len(r.lists)-1]
}

// TestToolsChangedReported: a server that adds or drops a tool and says
// so has its new list reported to the host, with no call of Tools, so a
// run already in flight can offer it.
func TestToolsChangedReported(t *testing.T) {
	server := sdk.NewServer(&sdk.Implementation{Name: "grows"}, nil)
	add := func(name string) {
		sdk.AddTool(server, &sdk.Tool{Name: name}, func(context.Context, *sdk.CallToolRequest, struct{}) (*sdk.CallToolResult, struct{}, error) {
			return &sdk.CallToolResult{Content: []sdk.Content{&sdk.TextContent{Text: name}}}, struct{}{}, nil
		})
	}
	add("first")
	r := &reported{}
	src := connect(t, mcp.Server{Name: "grows", URL: serveHTTP(t, server), Prefix: "g_", OnToolsChanged: r.changed})
	if _, err := src.Tools(context.Background()); err != nil {
		t.Fatal(err)
	}
	add("second")
	waitFor(t, "second to be reported", func() bool { return slices.Equal(r.last(), []string{"g_first", "g_second"}) })
	server.RemoveTools("first")
	waitFor(t, "first to be reported gone", func() bool { return slices.Equal(r.last(), []string{"g_second"}) })
}

// TestCallWaitsForChangedList: a call during which its server changed
// its tool list (here the call itself does) returns only once the new
// list was reported and the host is done with it, so the result reaches
// a run after the new tools did and its next model call offers them. The
// call of a tool the change dropped, in flight, finishes normally.
func TestCallWaitsForChangedList(t *testing.T) {
	r := &reported{delay: 300 * time.Millisecond}
	src := connect(t, mcp.Server{Name: "shifting", Command: shiftingStdioServer(t), OnToolsChanged: r.changed})
	tools, err := src.Tools(context.Background())
	if err != nil {
		t.Fatal(err)
	}
	o := call(t, tools, dispatch.Options{}, "shift", `{}`)
	got := struct {
		Content string
		IsError bool
		Listed  []string
	}{o.Outcome.Content, o.Outcome.IsError, r.last()}
	want := got
	want.Content, want.IsError, want.Listed = "shifted", false, []string{"fresh"}
	if diff := cmp.Diff(want, got); diff != "" {
		t.Errorf("when the call returned, mismatch (-want +got):\n%s", diff)
	}
}

// nodeServer returns the command that runs a server script of
// testdata/servers with node.
func nodeServer(t *testing.T, script string) []string {
	t.Helper()
	dir, _ := filepath.Abs(filepath.Join("testdata", "servers"))
	_, err := os.Stat(filepath.Join(dir, "node_modules", "@modelcontextprotocol", "sdk", "package.json"))
	if _, nodeErr := exec.LookPath("node"); err != nil || nodeErr != nil {
		if os.Getenv("CI") != "" {
			t.Fatalf("node or the MCP SDK missing under CI: .ci/run installs them")
		}
		t.Skipf("needs node and the pinned servers: npm ci --prefix dispatch/mcp/testdata/servers")
	}
	return []string{"node", filepath.Join(dir, script)}
}

// TestToolsChangedNodeServers: servers of the official TypeScript SDK
// announce changes too, the reference server even while the handshake
// is under way (its conditional tools), which must be no report at all
// rather than a crash; the shifting server's call that changes its list
// returns after the new list was reported.
func TestToolsChangedNodeServers(t *testing.T) {
	bin := serverBin(t, "mcp-server-everything")
	for i := 0; i < 5; i++ {
		r := &reported{}
		src := connect(t, mcp.Server{Name: "ev", Command: []string{bin, "stdio"}, OnToolsChanged: r.changed})
		if _, err := src.Tools(context.Background()); err != nil {
			t.Fatal(err)
		}
		src.Close()
	}
	r := &reported{delay: 100 * time.Millisecond}
	src := connect(t, mcp.Server{Name: "shifting", Command: nodeServer(t, "shifting.mjs"), OnToolsChanged: r.changed})
	tools, err := src.Tools(context.Background())
	if err != nil {
		t.Fatal(err)
	}
	o := call(t, tools, dispatch.Options{}, "shift", `{}`)
	if o.Outcome.Content != "shifted" || o.Outcome.IsError || !slices.Equal(r.last(), []string{"fresh"}) {
		t.Errorf("outcome %+v, reported %v when the call returned; want shifted, after [fresh]", o.Outcome, r.last())
	}
}
