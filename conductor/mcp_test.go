package conductor_test

import (
	"context"
	"net/http"
	"net/http/httptest"
	"strings"
	"sync/atomic"
	"testing"

	sdk "github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/batonrt/baton/conductor"
	"github.com/batonrt/baton/contract"
	"github.com/batonrt/baton/dispatch/mcp"
	"github.com/batonrt/baton/provider/scripted"
)

// TestMCPToolsAsRunTools: an MCP server's tools given to a run answer its
// calls, and a server marked NeedsApproval has each call approved first:
// a denied call never reaches the server.
func TestMCPToolsAsRunTools(t *testing.T) {
	server := sdk.NewServer(&sdk.Implementation{Name: "ops"}, nil)
	var calls atomic.Int32
	sdk.AddTool(server, &sdk.Tool{Name: "restart", Description: "Restarts a service."}, func(_ context.Context, _ *sdk.CallToolRequest, in struct {
		Service string `json:"service"`
	}) (*sdk.CallToolResult, struct{}, error) {
		calls.Add(1)
		return &sdk.CallToolResult{Content: []sdk.Content{&sdk.TextContent{Text: "restarted " + in.Service}}}, struct{}{}, nil
	})
	ts := httptest.NewServer(sdk.NewStreamableHTTPHandler(func(*http.Request) *sdk.Server { return server }, nil))
	defer ts.Close()
	src, err := mcp.Connect(ctxT(t), mcp.Server{Name: "ops", URL: ts.URL, Prefix: "ops_", NeedsApproval: true})
	if err != nil {
		t.Fatal(err)
	}
	defer src.Close()
	tools, err := src.Tools(ctxT(t))
	if err != nil {
		t.Fatal(err)
	}
	model := scripted.New(
		scripted.Reply{Calls: []scripted.Call{{ID: "c1", Name: "ops_restart", Arguments: `{"service":"web"}`}, {ID: "c2", Name: "ops_restart", Arguments: `{"service":"db"}`}}},
		scripted.Reply{Text: "done"},
	)
	deps := testDeps(model, nil)
	deps.People.Approver = func(_ context.Context, req conductor.ApprovalRequest) (conductor.Decision, error) {
		return conductor.Decision{Approved: strings.Contains(req.Call.Arguments, "web"), Reason: "not the database"}, nil
	}
	a := newAgent(t, contract.AgentConfig{}, deps)
	snap, err := a.Submit(ctxT(t), conductor.Input{Text: "restart web and db", Tools: tools})
	if err != nil {
		t.Fatal(err)
	}
	res := results(snap)
	if len(res) != 2 || res[0].Content != "restarted web" || res[0].IsError || !res[1].IsError {
		t.Fatalf("results %+v", res)
	}
	if n := calls.Load(); n != 1 {
		t.Errorf("server ran %d calls, want 1 (the denied one never leaves)", n)
	}
}
