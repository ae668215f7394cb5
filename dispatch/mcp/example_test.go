package mcp_test

import (
	"context"
	"fmt"
	"net/http"
	"net/http/httptest"

	sdk "github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/batonrt/baton/dispatch/mcp"
)

type addArgs struct {
	A int `json:"a"`
	B int `json:"b"`
}

// Connect reaches an MCP server, here one over streamable HTTP on
// loopback (a Command instead of a URL starts one over stdio), and Tools
// lists its tools as baton tools, named with the Prefix. A host hands
// them to an agent's run (conductor.Input.Tools) or its tool box; a call
// runs on the server.
func ExampleConnect() {
	server := sdk.NewServer(&sdk.Implementation{Name: "calc", Version: "1.0.0"}, nil)
	sdk.AddTool(server, &sdk.Tool{Name: "add", Description: "Adds two numbers."},
		func(ctx context.Context, _ *sdk.CallToolRequest, in addArgs) (*sdk.CallToolResult, any, error) {
			return &sdk.CallToolResult{Content: []sdk.Content{&sdk.TextContent{Text: fmt.Sprint(in.A + in.B)}}}, nil, nil
		})
	srv := httptest.NewServer(sdk.NewStreamableHTTPHandler(func(*http.Request) *sdk.Server { return server }, nil))
	defer srv.Close()

	ctx := context.Background()
	src, err := mcp.Connect(ctx, mcp.Server{Name: "calc", URL: srv.URL, Prefix: "calc_"})
	if err != nil {
		fmt.Println(err)
		return
	}
	defer src.Close()
	tools, err := src.Tools(ctx)
	if err != nil {
		fmt.Println(err)
		return
	}
	for _, tool := range tools {
		d := tool.Descriptor()
		fmt.Printf("%s: %s\n", d.Name, d.Description)
	}
	out, err := tools[0].Call(ctx, []byte(`{"a":2,"b":3}`))
	if err != nil {
		fmt.Println(err)
		return
	}
	fmt.Println("2 + 3 =", out.Content)
	// Output:
	// calc_add: Adds two numbers.
	// 2 + 3 = 5
}
