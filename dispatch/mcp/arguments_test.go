package mcp_test

import (
	"context"
	"strings"
	"sync/atomic"
	"testing"

	"github.com/google/go-cmp/cmp"
	sdk "github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/batonrt/baton/dispatch"
	"github.com/batonrt/baton/dispatch/mcp"
)

// TestMalformedArguments: arguments a model wrote badly are an error
// result that says so, as a typed tool's are, and never reach the
// server; no arguments, blank or not, are an empty object.
func TestMalformedArguments(t *testing.T) {
	server := sdk.NewServer(&sdk.Implementation{Name: "args"}, nil)
	var calls atomic.Int32
	type in struct {
		N int `json:"n,omitempty"`
	}
	sdk.AddTool(server, &sdk.Tool{Name: "echo"}, func(_ context.Context, r *sdk.CallToolRequest, _ in) (*sdk.CallToolResult, struct{}, error) {
		calls.Add(1)
		return &sdk.CallToolResult{Content: []sdk.Content{&sdk.TextContent{Text: "ran"}}}, struct{}{}, nil
	})
	var log logBuffer
	src := connect(t, mcp.Server{Name: "args", URL: serveHTTP(t, server), Logger: log.logger()})
	tools, err := src.Tools(context.Background())
	if err != nil {
		t.Fatal(err)
	}
	type result struct {
		Content string
		IsError bool
		Reached bool
	}
	tests := []struct {
		name, args string
		want       result
	}{
		{"none", ``, result{"ran", false, true}},
		{"blank", " \n\t", result{"ran", false, true}},
		{"an object", ` {"n":1} `, result{"ran", false, true}},
		{"cut short", `{"n":`, result{"invalid arguments: malformed JSON: unexpected end of JSON input", true, false}},
		{"a bad escape", `{"n":"\x"}`, result{`invalid arguments: malformed JSON: invalid character 'x' in string escape code`, true, false}},
		{"two values", `{} {}`, result{"invalid arguments: malformed JSON: invalid character '{' after top-level value", true, false}},
		{"null", `null`, result{"invalid arguments: must be a JSON object, got null", true, false}},
		{"an array", `[1]`, result{"invalid arguments: must be a JSON object, got an array", true, false}},
		{"a string", `"n"`, result{"invalid arguments: must be a JSON object, got a string", true, false}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			before := calls.Load()
			o := call(t, tools, dispatch.Options{}, "echo", tt.args)
			got := result{o.Outcome.Content, o.Outcome.IsError, calls.Load() != before}
			if diff := cmp.Diff(tt.want, got); diff != "" {
				t.Errorf("arguments %q mismatch (-want +got):\n%s", tt.args, diff)
			}
		})
	}
	if strings.Contains(log.String(), "tool call failed") {
		t.Errorf("a model's malformed arguments were logged as a failed call:\n%s", log.String())
	}
}
