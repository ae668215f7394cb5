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
	"github.com/batonrt/baton/provider/scripted"
)

// TestFailedDelegateSaysWhy: a delegate's run that faults ends its span
// in error with what failed it, as the root run's span would be, not
// with the child's session id, which subflow_failed carries in Text.
func TestFailedDelegateSaysWhy(t *testing.T) {
	model := scripted.New(
		scripted.Reply{Calls: []scripted.Call{{ID: "d1", Name: "delegate_helper", Arguments: `{"task":"help"}`}}},
		scripted.Reply{Fail: &scripted.Failure{Status: 400, Message: "context window exceeded"}},
		scripted.Reply{Text: "done"},
	)
	cfg := contract.AgentConfig{Model: "m", Delegates: []contract.Delegate{{Name: "helper", Config: contract.AgentConfig{Model: "m"}}}}
	spans := run(t, cfg, model, tracing.Options{})
	child := find(t, spans, "invoke_agent helper")
	if child.Status.Code != codes.Error {
		t.Fatalf("failed delegate's span status %v, want an error", child.Status)
	}
	if strings.HasPrefix(child.Status.Description, "s1/") || !strings.Contains(child.Status.Description, "context window exceeded") {
		t.Errorf("failed delegate's span says %q, want the model's failure", child.Status.Description)
	}
	if got := attrs(child)["error.type"]; got != string(contract.KindModel) {
		t.Errorf("failed delegate's error.type %q, want %q", got, contract.KindModel)
	}
}

// TestDelegateThatNeverRanFails: a delegate call whose child published
// nothing of its own before failing still ends the child's span in
// error, without passing off the child's session as the reason.
func TestDelegateThatNeverRanFails(t *testing.T) {
	exp := tracetest.NewInMemoryExporter()
	tp := sdktrace.NewTracerProvider(sdktrace.WithSyncer(exp))
	defer tp.Shutdown(context.Background())
	tr := tracing.New(tp, tracing.Options{})
	call := &contract.ToolCall{ID: "d1", Name: "delegate_helper", Arguments: `{"task":"help"}`}
	for _, ev := range []contract.RunEvent{
		{Kind: contract.EvRunStarted, SessionID: "s1", RunID: "r1", At: 1},
		{Kind: contract.EvToolCall, SessionID: "s1", RunID: "r1", At: 2, Call: call},
		{Kind: contract.EvSubflowStarted, SessionID: "s1", RunID: "r1", At: 3, Call: call, Text: "s1/2.0"},
		{Kind: contract.EvSubflowFailed, SessionID: "s1", RunID: "r1", At: 4, Call: call, Text: "s1/2.0"},
		{Kind: contract.EvToolResult, SessionID: "s1", RunID: "r1", At: 5, Result: &contract.ToolResult{CallID: "d1", Content: "error: no model", IsError: true}},
		{Kind: contract.EvRunSettled, SessionID: "s1", RunID: "r1", At: 6},
	} {
		tr.Observe(ev)
	}
	child := find(t, exp.GetSpans(), "invoke_agent helper")
	if child.Status.Code != codes.Error || strings.Contains(child.Status.Description, "s1/2.0") {
		t.Errorf("failed delegate's span status %+v, want an error that is not its session", child.Status)
	}
	if got := attrs(child)["error.type"]; got != "delegation_failed" {
		t.Errorf("failed delegate's error.type %q, want delegation_failed", got)
	}
}
