package tracing_test

import (
	"context"
	"strings"
	"testing"

	"go.opentelemetry.io/otel/codes"
	sdktrace "go.opentelemetry.io/otel/sdk/trace"
	"go.opentelemetry.io/otel/sdk/trace/tracetest"

	"github.com/batonrt/baton/conductor/tracing"
	"github.com/batonrt/baton/contract"
)

// TestFailedToolOutputIsContent: a failed call's result is the tool's
// output (a shell line's stdout before its exit status), so with Content
// off no span says any of it; the span still fails with error.type
// tool_error.
func TestFailedToolOutputIsContent(t *testing.T) {
	exp := tracetest.NewInMemoryExporter()
	tp := sdktrace.NewTracerProvider(sdktrace.WithSyncer(exp))
	defer tp.Shutdown(context.Background())
	tr := tracing.New(tp, tracing.Options{})
	call := &contract.ToolCall{ID: "c1", Name: "shell", Arguments: `{"command":"cat notes.txt; false"}`}
	const private = "Dear Alice, my PIN is 4321"
	for _, ev := range []contract.RunEvent{
		{Kind: contract.EvRunStarted, SessionID: "s1", RunID: "r1", At: 1},
		{Kind: contract.EvToolCall, SessionID: "s1", RunID: "r1", At: 2, Call: call},
		{Kind: contract.EvToolResult, SessionID: "s1", RunID: "r1", At: 3, Result: &contract.ToolResult{CallID: "c1", Content: private + "\n[exit status 1]", IsError: true}},
		{Kind: contract.EvRunSettled, SessionID: "s1", RunID: "r1", At: 4},
	} {
		tr.Observe(ev)
	}
	tool := find(t, exp.GetSpans(), "execute_tool shell")
	if tool.Status.Code != codes.Error || attrs(tool)["error.type"] != "tool_error" {
		t.Errorf("failed tool span: status %v, attributes %v", tool.Status, attrs(tool))
	}
	for _, s := range exp.GetSpans() {
		said := []string{s.Status.Description}
		for _, kv := range s.Attributes {
			said = append(said, kv.Value.String())
		}
		for _, e := range s.Events {
			for _, kv := range e.Attributes {
				said = append(said, kv.Value.String())
			}
		}
		for _, x := range said {
			if strings.Contains(x, "Alice") {
				t.Errorf("span %q says the tool's output with Content off: %q", s.Name, x)
			}
		}
	}
}
