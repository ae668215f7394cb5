package mcp_test

import (
	"context"
	"net/http"
	"net/http/httptest"
	"slices"
	"sync/atomic"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"
	sdk "github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/batonrt/baton/contract"
	"github.com/batonrt/baton/dispatch"
	"github.com/batonrt/baton/dispatch/mcp"
)

// TestToolListChangeDuringListing: a server whose tool list changes while
// a listing is on its way (it announces the change before the answer
// arrives) must have the new tool in a later listing. The announcement
// must not be lost because the listing in flight clears the "changed"
// mark when it lands.
func TestToolListChangeDuringListing(t *testing.T) {
	server := sdk.NewServer(&sdk.Implementation{Name: "racy"}, nil)
	add := func(name string) {
		sdk.AddTool(server, &sdk.Tool{Name: name}, func(context.Context, *sdk.CallToolRequest, struct{}) (*sdk.CallToolResult, struct{}, error) {
			return &sdk.CallToolResult{Content: []sdk.Content{&sdk.TextContent{Text: name}}}, struct{}{}, nil
		})
	}
	add("first")
	var lists atomic.Int32
	server.AddReceivingMiddleware(func(next sdk.MethodHandler) sdk.MethodHandler {
		return func(ctx context.Context, method string, req sdk.Request) (sdk.Result, error) {
			res, err := next(ctx, method, req)
			if method == "tools/list" && lists.Add(1) == 1 {
				// The list is made; now the server gains a tool and
				// announces it before its answer leaves.
				add("second")
				time.Sleep(300 * time.Millisecond)
			}
			return res, err
		}
	})
	ts := httptest.NewServer(sdk.NewStreamableHTTPHandler(func(*http.Request) *sdk.Server { return server }, nil))
	defer ts.Close()
	src := connect(t, mcp.Server{Name: "racy", URL: ts.URL})
	if _, err := src.Tools(context.Background()); err != nil {
		t.Fatal(err)
	}
	var got []string
	for deadline := time.Now().Add(3 * time.Second); time.Now().Before(deadline); time.Sleep(50 * time.Millisecond) {
		tools, err := src.Tools(context.Background())
		if err != nil {
			t.Fatal(err)
		}
		if got = names(tools); slices.Contains(got, "second") {
			src.Close()
			return
		}
	}
	src.Close()
	t.Errorf("tools %v after the server announced a change during the first listing; want second among them (listed %d times)", got, lists.Load())
}

// TestVanishedTool: a tool the server removed (and announced so) fails
// with an error naming the server and the tool, not whatever the server
// answers for a name it does not know.
func TestVanishedTool(t *testing.T) {
	server := sdk.NewServer(&sdk.Implementation{Name: "shrinks"}, nil)
	for _, name := range []string{"keep", "drop"} {
		sdk.AddTool(server, &sdk.Tool{Name: name}, func(context.Context, *sdk.CallToolRequest, struct{}) (*sdk.CallToolResult, struct{}, error) {
			return &sdk.CallToolResult{Content: []sdk.Content{&sdk.TextContent{Text: name}}}, struct{}{}, nil
		})
	}
	ts := httptest.NewServer(sdk.NewStreamableHTTPHandler(func(*http.Request) *sdk.Server { return server }, nil))
	defer ts.Close()
	src := connect(t, mcp.Server{Name: "shrinks", URL: ts.URL})
	tools, err := src.Tools(context.Background())
	if err != nil {
		t.Fatal(err)
	}
	server.RemoveTools("drop")
	waitFor(t, "drop to leave the listing", func() bool {
		now, err := src.Tools(context.Background())
		return err == nil && !slices.Contains(names(now), "drop")
	})
	got := []contract.ToolOutcome{
		call(t, tools, dispatch.Options{}, "keep", `{}`).Outcome,
		call(t, tools, dispatch.Options{}, "drop", `{}`).Outcome,
	}
	want := []contract.ToolOutcome{
		{Content: "keep"},
		{Content: `mcp: unknown tool "drop": server "shrinks" no longer offers it`, IsError: true},
	}
	if diff := cmp.Diff(want, got); diff != "" {
		t.Errorf("outcomes mismatch (-want +got):\n%s", diff)
	}
	src.Close()
}
