package main

import (
	"context"
	"encoding/json"
	"fmt"
	"net/http"
	"net/http/httptest"
	"slices"
	"strings"
	"sync"
	"testing"

	"github.com/google/go-cmp/cmp"
	sdk "github.com/modelcontextprotocol/go-sdk/mcp"
)

// unsendableSchema is an input schema no provider can be sent: a union
// whose one branch names a definition the schema lacks.
const unsendableSchema = `{"type":"object","properties":{},"anyOf":[{"$ref":"#/$defs/Query"}]}`

// mixedMCP is an MCP server over HTTP on loopback with one tool whose
// schema can be sent (search) and one whose schema cannot (lookup).
func mixedMCP(t *testing.T) string {
	t.Helper()
	server := sdk.NewServer(&sdk.Implementation{Name: "mixed"}, nil)
	handler := func(context.Context, *sdk.CallToolRequest) (*sdk.CallToolResult, error) {
		return &sdk.CallToolResult{Content: []sdk.Content{&sdk.TextContent{Text: "ran"}}}, nil
	}
	server.AddTool(&sdk.Tool{Name: "search", InputSchema: json.RawMessage(`{"type":"object","properties":{"q":{"type":"string"}}}`)}, handler)
	server.AddTool(&sdk.Tool{Name: "lookup", InputSchema: json.RawMessage(unsendableSchema)}, handler)
	ts := httptest.NewServer(sdk.NewStreamableHTTPHandler(func(*http.Request) *sdk.Server { return server }, nil))
	t.Cleanup(ts.Close)
	return ts.URL
}

// toolsOpenAI is an OpenAI-compatible server on loopback that answers
// every chat completion with "Done." and keeps the tool names each
// request offered.
func toolsOpenAI(t *testing.T) (url string, offered func() [][]string) {
	t.Helper()
	var mu sync.Mutex
	var seen [][]string
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		var req struct {
			Tools []struct {
				Function struct{ Name string } `json:"function"`
			} `json:"tools"`
		}
		if err := json.NewDecoder(r.Body).Decode(&req); err != nil {
			http.Error(w, err.Error(), http.StatusBadRequest)
			return
		}
		var names []string
		for _, tl := range req.Tools {
			names = append(names, tl.Function.Name)
		}
		mu.Lock()
		seen = append(seen, names)
		mu.Unlock()
		w.Header().Set("Content-Type", "text/event-stream")
		fmt.Fprint(w, "data: {\"id\":\"c1\",\"object\":\"chat.completion.chunk\",\"created\":1,\"model\":\"m\",\"choices\":[{\"index\":0,\"delta\":{\"role\":\"assistant\",\"content\":\"Done.\"}}]}\n\n")
		fmt.Fprint(w, "data: {\"id\":\"c1\",\"object\":\"chat.completion.chunk\",\"created\":1,\"model\":\"m\",\"choices\":[{\"index\":0,\"delta\":{},\"finish_reason\":\"stop\"}]}\n\ndata: [DONE]\n\n")
	}))
	t.Cleanup(srv.Close)
	return srv.URL + "/v1", func() [][]string {
		mu.Lock()
		defer mu.Unlock()
		return slices.Clone(seen)
	}
}

// wantLeftOut is what the warning about the tool left out says: the
// server, the tool and why.
var wantLeftOut = []string{"mcp: tool left out", "server=py", "tool=lookup", `$ref \"#/$defs/Query\" names no schema in this one`}

// TestRunLeavesOutAnUnsendableMCPTool: an MCP server's tool whose input
// schema no provider can be sent is left out of the run with a warning
// naming the server, the tool and why; the agent is not refused, and the
// server's other tools are offered.
func TestRunLeavesOutAnUnsendableMCPTool(t *testing.T) {
	isolate(t)
	t.Setenv("OPENAI_API_KEY", "sk-test")
	model, offered := toolsOpenAI(t)
	code, stdout, stderr := cli(t, "", "run", "--provider", "openai", "--base-url", model, "--model", "m", "--retries", "0",
		"--store", t.TempDir(), "--workspace", t.TempDir(), "--instructions", "", "--mcp-trusted", "py="+mixedMCP(t), "hi")
	if code != 0 || !strings.Contains(stdout, "Done.") {
		t.Fatalf("exit %d\nstdout:\n%s\nstderr:\n%s", code, stdout, stderr)
	}
	for _, want := range wantLeftOut {
		if !strings.Contains(stderr, want) {
			t.Errorf("stderr lacks %s:\n%s", want, stderr)
		}
	}
	if diff := cmp.Diff([][]string{{"py_search"}}, mcpNames(offered())); diff != "" {
		t.Errorf("MCP tools offered to the model mismatch (-want +got):\n%s", diff)
	}
}

// TestServeLeavesOutAnUnsendableMCPTool: serve, likewise, offers each
// run the MCP tools that can be sent, warning once about the other, and
// its runs finish.
func TestServeLeavesOutAnUnsendableMCPTool(t *testing.T) {
	isolate(t)
	t.Setenv("OPENAI_API_KEY", "sk-test")
	model, offered := toolsOpenAI(t)
	addr, stderr := serveInProcess(t, "--store", t.TempDir(), "--provider", "openai", "--base-url", model, "--model", "m", "--retries", "0",
		"--workspace", t.TempDir(), "--mcp-trusted", "py="+mixedMCP(t))
	node := &serveNode{addr: addr}
	for _, run := range []string{"m1", "m2"} {
		if code, body := node.post(t, "t"+run, run, "hi"); code != http.StatusOK || !strings.Contains(body, `"RUN_FINISHED"`) {
			t.Fatalf("run %s (%d):\n%s\nstderr:\n%s", run, code, body, stderr)
		}
	}
	want := [][]string{{"py_search"}, {"py_search"}}
	if diff := cmp.Diff(want, mcpNames(offered())); diff != "" {
		t.Errorf("MCP tools offered to the model mismatch (-want +got):\n%s", diff)
	}
	for _, want := range wantLeftOut {
		if n := strings.Count(stderr.String(), want); n != 1 {
			t.Errorf("stderr has %s %d times, want once:\n%s", want, n, stderr)
		}
	}
}

// mcpNames is, for each request, the names of the py server's tools.
func mcpNames(offered [][]string) [][]string {
	var out [][]string
	for _, names := range offered {
		out = append(out, slices.DeleteFunc(names, func(n string) bool { return !strings.HasPrefix(n, "py_") }))
	}
	return out
}

// serveInProcess runs baton serve with args on a free loopback port
// until the test ends, returning its address and its standard error.
func serveInProcess(t *testing.T, args ...string) (string, *syncBuffer) {
	t.Helper()
	ctx, cancel := context.WithCancel(context.Background())
	stdout, stderr := newSyncBuffer(), newSyncBuffer()
	done := make(chan struct{})
	go func() {
		defer close(done)
		run(ctx, append([]string{"serve", "--addr", "127.0.0.1:0"}, args...), strings.NewReader(""), stdout, stderr)
	}()
	t.Cleanup(func() { cancel(); <-done })
	var addr string
	waitFor(t, "serve to listen", func() bool {
		_, rest, ok := strings.Cut(stdout.String(), "serving AG-UI on http://")
		addr, _, _ = strings.Cut(rest, "/")
		return ok && addr != ""
	})
	return addr, stderr
}
