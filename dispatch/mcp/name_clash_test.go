package mcp_test

import (
	"context"
	"net/http"
	"net/http/httptest"
	"slices"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
	sdk "github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/batonrt/baton/dispatch"
	"github.com/batonrt/baton/dispatch/mcp"
)

// TestNamesThatSanitizeAlike: a server's tools whose names become one
// name once made valid (a dot or a slash made '_', a long name cut) all
// join the tool box under distinct names, each calling its own tool. A
// name that needed no change keeps it, and the others' names depend only
// on their own names, so they are the same whichever order the server
// lists them in and every time it starts.
func TestNamesThatSanitizeAlike(t *testing.T) {
	long := strings.Repeat("l", 70)
	remote := []string{"files.read", "files_read", "files/read", long + "1", long + "2"}
	want := []string{
		"x_files_read",
		"x_files_read_2b733164", // files/read
		"x_files_read_601e4eb6", // files.read
		"x_" + strings.Repeat("l", 53) + "_9faaf1f0",
		"x_" + strings.Repeat("l", 53) + "_fc160aab",
	}
	for _, order := range [][]int{{0, 1, 2, 3, 4}, {4, 2, 1, 3, 0}} {
		server := sdk.NewServer(&sdk.Implementation{Name: "clash"}, nil)
		for _, i := range order {
			name := remote[i]
			sdk.AddTool(server, &sdk.Tool{Name: name}, func(context.Context, *sdk.CallToolRequest, struct{}) (*sdk.CallToolResult, struct{}, error) {
				return &sdk.CallToolResult{Content: []sdk.Content{&sdk.TextContent{Text: name}}}, struct{}{}, nil
			})
		}
		ts := httptest.NewServer(sdk.NewStreamableHTTPHandler(func(*http.Request) *sdk.Server { return server }, nil))
		src := connect(t, mcp.Server{Name: "clash", URL: ts.URL, Prefix: "x_"})
		tools, err := src.Tools(context.Background())
		if err != nil {
			t.Fatal(err)
		}
		got := names(tools)
		slices.Sort(got)
		if diff := cmp.Diff(want, got); diff != "" {
			t.Fatalf("names, server listing in order %v (-want +got):\n%s", order, diff)
		}
		if _, err := dispatch.NewToolBox(tools...); err != nil {
			t.Fatal(err)
		}
		var answered []string
		for _, n := range names(tools) {
			o := call(t, tools, dispatch.Options{}, n, `{}`)
			answered = append(answered, o.Outcome.Content)
		}
		slices.Sort(answered)
		if diff := cmp.Diff(slices.Sorted(slices.Values(remote)), answered); diff != "" {
			t.Errorf("the tools called, one call each (-want +got):\n%s", diff)
		}
		src.Close()
		ts.Close()
	}
}
