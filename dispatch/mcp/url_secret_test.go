package mcp_test

import (
	"context"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"

	sdk "github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/batonrt/baton/dispatch"
	"github.com/batonrt/baton/dispatch/mcp"
)

// TestCallErrorsLeaveOutTheServersURL: hosted MCP servers often take
// their key in the URL, in the query or the path. A call's error is the
// model's to read and the session's to keep, so when the server cannot
// be reached the error names the server and its host but not the rest
// of its URL, which Go's errors quote whole.
func TestCallErrorsLeaveOutTheServersURL(t *testing.T) {
	server := sdk.NewServer(&sdk.Implementation{Name: "hosted"}, nil)
	sdk.AddTool(server, &sdk.Tool{Name: "ping"}, func(context.Context, *sdk.CallToolRequest, struct{}) (*sdk.CallToolResult, struct{}, error) {
		return &sdk.CallToolResult{Content: []sdk.Content{&sdk.TextContent{Text: "pong"}}}, struct{}{}, nil
	})
	ts := httptest.NewServer(sdk.NewStreamableHTTPHandler(func(*http.Request) *sdk.Server { return server }, nil))
	src := connect(t, mcp.Server{Name: "hosted", URL: ts.URL + "/s/pathS3CRET/mcp?api_key=queryS3CRET"})
	tools, err := src.Tools(context.Background())
	if err != nil {
		t.Fatal(err)
	}
	if o := call(t, tools, dispatch.Options{}, "ping", `{}`).Outcome; o.Content != "pong" {
		t.Fatalf("ping before the server went away: %+v", o)
	}
	for ss := range server.Sessions() {
		ss.Close()
	}
	ts.CloseClientConnections()
	ts.Close()
	o := call(t, tools, dispatch.Options{}, "ping", `{}`).Outcome
	if !o.IsError || !strings.Contains(o.Content, `"hosted"`) {
		t.Errorf("ping after the server went away: %+v, want an error naming the server", o)
	}
	if strings.Contains(o.Content, "S3CRET") {
		t.Errorf("the error quotes the server's URL: %q", o.Content)
	}
}
