package main

import (
	"context"
	"fmt"
	"io"
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"
	sdk "github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/batonrt/baton/conductor"
	"github.com/batonrt/baton/contract"
	"github.com/batonrt/baton/dispatch"
	"github.com/batonrt/baton/dispatch/mcp"
	"github.com/batonrt/baton/provider/scripted"
	"github.com/batonrt/baton/store"
)

// TestServeShellAsksThePage: with --allow-shell, serve offers the shell
// tool, and its call waits for the client's approval before it runs.
func TestServeShellAsksThePage(t *testing.T) {
	skipShort(t, "spawns processes")
	isolate(t)
	ws := t.TempDir()
	node := startNode(t, "--store", t.TempDir(), "--provider", "scripted", "--script", writeScript(t, shellScript), "--workspace", ws, "--allow-shell")
	code, body := node.post(t, "sh", "m1", "go")
	for _, want := range []string{`"baton.approval_requested"`, `"toolCallName":"shell"`, `echo from-shell`, `"RUN_FINISHED"`} {
		if code != http.StatusOK || !strings.Contains(body, want) {
			t.Fatalf("first stream (%d) lacks %s:\n%s", code, want, body)
		}
	}
	if _, err := os.Stat(filepath.Join(ws, "out.txt")); err == nil {
		t.Fatal("the shell ran before it was approved")
	}
	approve := `{"threadId":"sh","runId":"m2","messages":[` +
		`{"id":"m1","role":"user","content":"go"},` +
		`{"id":"a1","role":"assistant","toolCalls":[{"id":"c1","type":"function","function":{"name":"shell","arguments":"{}"}}]},` +
		`{"id":"t1","role":"tool","toolCallId":"c1","content":"{\"approved\":true}"}]}`
	resp, err := http.Post("http://"+node.addr+"/", "application/json", strings.NewReader(approve))
	if err != nil {
		t.Fatal(err)
	}
	defer resp.Body.Close()
	b, _ := io.ReadAll(resp.Body)
	for _, want := range []string{`from-shell`, `"delta":"Finished."`, `"RUN_FINISHED"`} {
		if resp.StatusCode != http.StatusOK || !strings.Contains(string(b), want) {
			t.Fatalf("approved stream (%d) lacks %s:\n%s", resp.StatusCode, want, b)
		}
	}
	if out, err := os.ReadFile(filepath.Join(ws, "out.txt")); err != nil || string(out) != "from-shell\n" {
		t.Errorf("out.txt = %q, %v", out, err)
	}
}

// TestServeMCP: serve offers an MCP server's tools; a trusted server's
// call runs at once.
func TestServeMCP(t *testing.T) {
	skipShort(t, "spawns processes")
	isolate(t)
	bin := everythingBin(t)
	script := writeScript(t, `{"replies": [
	  {"tool_calls": [{"id": "c1", "name": "ev_echo", "arguments": {"message": "over mcp"}}]},
	  {"text": "Done."}
	]}`)
	node := startNode(t, "--store", t.TempDir(), "--provider", "scripted", "--script", script, "--workspace", t.TempDir(), "--mcp-trusted", "ev="+bin+" stdio")
	code, body := node.post(t, "mcp", "m1", "call it")
	for _, want := range []string{`"toolCallName":"ev_echo"`, `Echo: over mcp`, `"delta":"Done."`, `"RUN_FINISHED"`} {
		if code != http.StatusOK || !strings.Contains(body, want) {
			t.Fatalf("stream (%d) lacks %s:\n%s", code, want, body)
		}
	}
}

// TestServeRunsOfferTheNewToolList: a thread's next run offers an MCP
// server's tools as the server lists them after it announced a change:
// the tool it added runs, and the one it removed is an unknown tool.
func TestServeRunsOfferTheNewToolList(t *testing.T) {
	server := sdk.NewServer(&sdk.Implementation{Name: "grows"}, nil)
	add := func(name string) {
		sdk.AddTool(server, &sdk.Tool{Name: name}, func(context.Context, *sdk.CallToolRequest, struct{}) (*sdk.CallToolResult, struct{}, error) {
			return &sdk.CallToolResult{Content: []sdk.Content{&sdk.TextContent{Text: "ran " + name}}}, struct{}{}, nil
		})
	}
	add("first")
	ts := httptest.NewServer(sdk.NewStreamableHTTPHandler(func(*http.Request) *sdk.Server { return server }, nil))
	defer ts.Close()
	ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
	defer cancel()
	mcps, _, err := openMCP(ctx, []mcp.Server{{Name: "grows", URL: ts.URL, Prefix: "grows_"}}, io.Discard)
	if err != nil {
		t.Fatal(err)
	}
	defer mcps.close()
	model := scripted.New(
		scripted.Reply{Calls: []scripted.Call{{ID: "c1", Name: "grows_first", Arguments: `{}`}}},
		scripted.Reply{Text: "one"},
		scripted.Reply{Calls: []scripted.Call{{ID: "c2", Name: "grows_second", Arguments: `{}`}, {ID: "c3", Name: "grows_first", Arguments: `{}`}}},
		scripted.Reply{Text: "two"},
	)
	r, err := openThread(ctx, store.NewMemory(), model, baseConfig("scripted"), nil, mcps, conductor.Model{}, defaultNamespace+"t", nil)
	if err != nil {
		t.Fatal(err)
	}
	defer r.Close()
	if _, err := r.Submit(ctx, []contract.Turn{contract.UserText("one")}); err != nil {
		t.Fatal(err)
	}
	server.RemoveTools("first")
	add("second")
	waitFor(t, "the new listing", func() bool {
		return slices.Equal(toolNames(mcps.with(ctx, nil)), []string{"grows_second"})
	})
	snap, err := r.Submit(ctx, []contract.Turn{contract.UserText("two")})
	if err != nil {
		t.Fatal(err)
	}
	var got []string
	for _, turn := range snap.History.Turns() {
		for _, res := range turn.Results() {
			got = append(got, fmt.Sprintf("%s error=%v: %s", res.Name, res.IsError, res.Content))
		}
	}
	want := []string{
		"grows_first error=false: ran first",
		"grows_second error=false: ran second",
		`grows_first error=true: error: unknown tool "grows_first"; available tools: grows_second`,
	}
	if diff := cmp.Diff(want, got); diff != "" {
		t.Errorf("results mismatch (-want +got):\n%s", diff)
	}
	var offered []string
	for _, d := range snap.RunTools {
		offered = append(offered, d.Name)
	}
	if !slices.Contains(offered, "grows_second") || slices.Contains(offered, "grows_first") {
		t.Errorf("second run offered %v, want grows_second and not grows_first", offered)
	}
}

func toolNames(tools []dispatch.Tool) []string {
	var out []string
	for _, t := range tools {
		out = append(out, t.Descriptor().Name)
	}
	return out
}

// TestServeRunInFlightTakesTheNewToolList: a server whose tools change
// while a thread's run goes on (its tool shift drops first and itself
// and adds second) has the new list reach that run's next model call:
// second runs, first is an unknown tool, and shift finishes normally.
func TestServeRunInFlightTakesTheNewToolList(t *testing.T) {
	server := sdk.NewServer(&sdk.Implementation{Name: "shifts"}, nil)
	text := func(out string) sdk.ToolHandlerFor[struct{}, struct{}] {
		return func(context.Context, *sdk.CallToolRequest, struct{}) (*sdk.CallToolResult, struct{}, error) {
			return &sdk.CallToolResult{Content: []sdk.Content{&sdk.TextContent{Text: out}}}, struct{}{}, nil
		}
	}
	// shift returns once baton has listed the tools again: it asks only
	// after it counted the change notice, so the call's result then waits
	// for the new list, however late the notice came on a busy machine.
	var shifting atomic.Bool
	relisted := make(chan struct{})
	var relistOnce sync.Once
	server.AddReceivingMiddleware(func(next sdk.MethodHandler) sdk.MethodHandler {
		return func(ctx context.Context, method string, req sdk.Request) (sdk.Result, error) {
			if method == "tools/list" && shifting.Load() {
				relistOnce.Do(func() { close(relisted) })
			}
			return next(ctx, method, req)
		}
	})
	sdk.AddTool(server, &sdk.Tool{Name: "first"}, text("ran first"))
	sdk.AddTool(server, &sdk.Tool{Name: "shift"}, func(ctx context.Context, req *sdk.CallToolRequest, in struct{}) (*sdk.CallToolResult, struct{}, error) {
		shifting.Store(true)
		server.RemoveTools("first", "shift")
		sdk.AddTool(server, &sdk.Tool{Name: "second"}, text("ran second"))
		select {
		case <-relisted:
		case <-ctx.Done():
		case <-time.After(20 * time.Second):
		}
		return text("shifted")(ctx, req, in)
	})
	ts := httptest.NewServer(sdk.NewStreamableHTTPHandler(func(*http.Request) *sdk.Server { return server }, nil))
	defer ts.Close()
	ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
	defer cancel()
	mcps, _, err := openMCP(ctx, []mcp.Server{{Name: "shifts", URL: ts.URL, Prefix: "s_"}}, io.Discard)
	if err != nil {
		t.Fatal(err)
	}
	defer mcps.close()
	model := scripted.New(
		scripted.Reply{Calls: []scripted.Call{{ID: "c1", Name: "s_shift", Arguments: `{}`}}},
		scripted.Reply{Calls: []scripted.Call{{ID: "c2", Name: "s_second", Arguments: `{}`}, {ID: "c3", Name: "s_first", Arguments: `{}`}}},
		scripted.Reply{Text: "done"},
	)
	r, err := openThread(ctx, store.NewMemory(), model, baseConfig("scripted"), nil, mcps, conductor.Model{}, defaultNamespace+"t", nil)
	if err != nil {
		t.Fatal(err)
	}
	defer r.Close()
	snap, err := r.Submit(ctx, []contract.Turn{contract.UserText("shift")})
	if err != nil {
		t.Fatal(err)
	}
	var got []string
	for _, turn := range snap.History.Turns() {
		for _, res := range turn.Results() {
			got = append(got, fmt.Sprintf("%s error=%v: %s", res.Name, res.IsError, res.Content))
		}
	}
	want := []string{
		"s_shift error=false: shifted",
		"s_second error=false: ran second",
		`s_first error=true: error: unknown tool "s_first"; available tools: s_second`,
	}
	if diff := cmp.Diff(want, got); diff != "" {
		t.Errorf("results mismatch (-want +got):\n%s", diff)
	}
}
