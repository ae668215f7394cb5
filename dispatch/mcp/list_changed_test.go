package mcp_test

import (
	"context"
	"net/http"
	"net/http/httptest"
	"slices"
	"sync/atomic"
	"testing"
	"time"

	sdk "github.com/modelcontextprotocol/go-sdk/mcp"

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
