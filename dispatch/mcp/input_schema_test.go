package mcp_test

import (
	"context"
	"encoding/json"
	"errors"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
	sdk "github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/batonrt/baton/contract"
	"github.com/batonrt/baton/dispatch/mcp"
)

// TestInputSchemasProvidersAccept: OpenAI refuses a whole request when
// one tool's schema has an object without properties or an array
// without items ("object schema missing properties"), which is what the
// Go SDK itself gives a tool of no arguments. Such schemas are completed
// with empty properties and items, which accept what they did.
func TestInputSchemasProvidersAccept(t *testing.T) {
	tests := []struct{ name, in, want string }{
		{"no arguments", `{"type":"object"}`, `{"type":"object","properties":{}}`},
		{"kept as it is", `{"type":"object","properties":{"a":{"type":"string"}},"required":["a"]}`, `{"type":"object","properties":{"a":{"type":"string"}},"required":["a"]}`},
		{"nested", `{"type":"object","properties":{"filter":{"type":"object","description":"any keys"},"tags":{"type":"array"},"rows":{"type":"array","items":{"type":"object"}},"either":{"anyOf":[{"type":"object"},{"type":"null"}]}}}`,
			`{"type":"object","properties":{"filter":{"type":"object","description":"any keys","properties":{}},"tags":{"type":"array","items":{}},"rows":{"type":"array","items":{"type":"object","properties":{}}},"either":{"anyOf":[{"type":"object","properties":{}},{"type":"null"}]}}}`},
		{"a default is data, not a schema", `{"type":"object","properties":{"o":{"type":"object","properties":{},"default":{"type":"object"}}}}`, `{"type":"object","properties":{"o":{"type":"object","properties":{},"default":{"type":"object"}}}}`},
	}
	server := sdk.NewServer(&sdk.Implementation{Name: "schemas"}, nil)
	for _, tt := range tests {
		server.AddTool(&sdk.Tool{Name: tt.name, InputSchema: json.RawMessage(tt.in)}, func(context.Context, *sdk.CallToolRequest) (*sdk.CallToolResult, error) {
			return &sdk.CallToolResult{}, nil
		})
	}
	ts := httptest.NewServer(sdk.NewStreamableHTTPHandler(func(*http.Request) *sdk.Server { return server }, nil))
	t.Cleanup(ts.Close) // after the connection's cleanup, which connect adds
	tools, err := connect(t, mcp.Server{Name: "schemas", URL: ts.URL}).Tools(context.Background())
	if err != nil {
		t.Fatal(err)
	}
	got := map[string]any{}
	for _, tl := range tools {
		var s any
		if err := json.Unmarshal(tl.Descriptor().InputSchema, &s); err != nil {
			t.Fatal(err)
		}
		got[tl.Descriptor().Name] = s
	}
	for _, tt := range tests {
		var want any
		if err := json.Unmarshal([]byte(tt.want), &want); err != nil {
			t.Fatal(err)
		}
		if diff := cmp.Diff(want, got[localName(tt.name)]); diff != "" {
			t.Errorf("%s: schema mismatch (-want +got):\n%s", tt.name, diff)
		}
	}
}

// localName is a test name as a tool name: spaces and commas made '_'.
func localName(name string) string {
	b := []byte(name)
	for i, c := range b {
		if c == ' ' || c == ',' {
			b[i] = '_'
		}
	}
	return string(b)
}

// TestCheckToolLeavesOutWhatItRefuses: a tool Server.CheckTool refuses is
// left out of the list with a warning naming the server, the tool and
// why; the server's other tools are listed, and CheckTool sees each as it
// would join the tool box.
func TestCheckToolLeavesOutWhatItRefuses(t *testing.T) {
	server := sdk.NewServer(&sdk.Implementation{Name: "checked"}, nil)
	for _, name := range []string{"kept", "refused"} {
		server.AddTool(&sdk.Tool{Name: name, InputSchema: json.RawMessage(`{"type":"object"}`)}, func(context.Context, *sdk.CallToolRequest) (*sdk.CallToolResult, error) {
			return &sdk.CallToolResult{}, nil
		})
	}
	url := serveHTTP(t, server)
	var log logBuffer
	var asked []string
	check := func(d contract.ToolDescriptor) error {
		asked = append(asked, d.Name+" "+string(d.InputSchema))
		if d.Name == "c_refused" {
			return errors.New("not for this model")
		}
		return nil
	}
	src := connect(t, mcp.Server{Name: "c", URL: url, Prefix: "c_", CheckTool: check, Logger: log.logger()})
	tools, err := src.Tools(context.Background())
	if err != nil {
		t.Fatal(err)
	}
	if diff := cmp.Diff([]string{"c_kept"}, names(tools)); diff != "" {
		t.Errorf("tools mismatch (-want +got):\n%s", diff)
	}
	if diff := cmp.Diff([]string{`c_kept {"properties":{},"type":"object"}`, `c_refused {"properties":{},"type":"object"}`}, asked); diff != "" {
		t.Errorf("CheckTool was asked (-want +got):\n%s", diff)
	}
	if want := `level=WARN msg="mcp: tool left out" server=c tool=refused err="not for this model"`; !strings.Contains(log.String(), want) {
		t.Errorf("log lacks %s:\n%s", want, log.String())
	}
}
