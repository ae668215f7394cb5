package mcp_test

import (
	"context"
	"testing"

	"github.com/google/go-cmp/cmp"
	sdk "github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/batonrt/baton/contract"
	"github.com/batonrt/baton/dispatch"
	"github.com/batonrt/baton/dispatch/mcp"
)

// TestErrorResultWithoutContent: a result the server flags as an error
// is an error outcome, and one that says nothing more still tells the
// model which tool failed, rather than handing it an empty error.
func TestErrorResultWithoutContent(t *testing.T) {
	server := sdk.NewServer(&sdk.Implementation{Name: "terse"}, nil)
	// Untyped, so the SDK adds no structured content of its own.
	server.AddTool(&sdk.Tool{Name: "fails", InputSchema: map[string]any{"type": "object"}}, func(context.Context, *sdk.CallToolRequest) (*sdk.CallToolResult, error) {
		return &sdk.CallToolResult{IsError: true}, nil
	})
	sdk.AddTool(server, &sdk.Tool{Name: "says"}, func(context.Context, *sdk.CallToolRequest, struct{}) (*sdk.CallToolResult, struct{}, error) {
		return &sdk.CallToolResult{IsError: true, Content: []sdk.Content{&sdk.TextContent{Text: "disk full"}}}, struct{}{}, nil
	})
	src := connect(t, mcp.Server{Name: "terse", URL: serveHTTP(t, server)})
	tools, err := src.Tools(context.Background())
	if err != nil {
		t.Fatal(err)
	}
	tests := []struct {
		tool string
		want contract.ToolOutcome
	}{
		{"fails", contract.ToolOutcome{Content: `mcp: fails on server "terse" failed and said nothing more`, IsError: true}},
		{"says", contract.ToolOutcome{Content: "disk full", IsError: true}},
	}
	for _, tt := range tests {
		t.Run(tt.tool, func(t *testing.T) {
			got := call(t, tools, dispatch.Options{}, tt.tool, `{}`).Outcome
			if diff := cmp.Diff(tt.want, got); diff != "" {
				t.Errorf("outcome mismatch (-want +got):\n%s", diff)
			}
		})
	}
}
