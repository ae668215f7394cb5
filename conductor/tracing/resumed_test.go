package tracing_test

import (
	"context"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"
	sdktrace "go.opentelemetry.io/otel/sdk/trace"
	"go.opentelemetry.io/otel/sdk/trace/tracetest"

	"github.com/batonrt/baton/conductor"
	"github.com/batonrt/baton/conductor/tracing"
	"github.com/batonrt/baton/contract"
	"github.com/batonrt/baton/dispatch"
	"github.com/batonrt/baton/provider/scripted"
	"github.com/batonrt/baton/store"
)

// resumeTraced runs cfg with before's replies until a call needs
// approval, closes that agent (which lets the run go, waiting), picks the
// run up again with a traced agent answering with after's replies,
// approves call c1, and returns the spans once the run settled.
func resumeTraced(t *testing.T, cfg contract.AgentConfig, before, after []scripted.Reply) tracetest.SpanStubs {
	t.Helper()
	guarded := dispatch.MustFunc("guarded", "Needs a yes.", func(_ context.Context, in struct{}) (string, error) { return "ok", nil }, dispatch.NeedsApproval())
	box := dispatch.MustToolBox(guarded)
	st := store.NewMemory()
	deps := func(replies []scripted.Reply) conductor.Deps {
		return conductor.Deps{
			Model:  conductor.Model{Provider: scripted.New(replies...)},
			Tools:  conductor.Tools{Box: box},
			People: conductor.People{Approver: conductor.ApproveLater},
			Env:    conductor.Env{Store: st, SessionID: "s1", IDs: &conductor.CountingIDs{}},
		}
	}
	ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
	defer cancel()

	first, err := conductor.CreateAgent(cfg, deps(before))
	if err != nil {
		t.Fatal(err)
	}
	closeWhenAsked(t, first)

	exp := tracetest.NewInMemoryExporter()
	tp := sdktrace.NewTracerProvider(sdktrace.WithSyncer(exp))
	defer tp.Shutdown(context.Background())
	second, err := conductor.CreateAgent(cfg, deps(after))
	if err != nil {
		t.Fatal(err)
	}
	defer second.Close()
	defer tracing.New(tp, tracing.Options{}).Attach(second)()
	settled := make(chan struct{})
	defer second.Subscribe(func(ev contract.RunEvent) {
		if ev.Kind == contract.EvRunSettled && len(ev.Subflow) == 0 {
			close(settled)
		}
	})()
	if _, err := second.Reopen(ctx, "s1"); err != nil {
		t.Fatal(err)
	}
	if err := second.Approve(t.Context(), "c1", conductor.Decision{Approved: true}); err != nil {
		t.Fatal(err)
	}
	select {
	case <-settled:
	case <-ctx.Done():
		t.Fatal("the resumed run never settled")
	}
	if err := second.Flush(ctx); err != nil {
		t.Fatal(err)
	}
	return exp.GetSpans()
}

// TestResumedRunIsTraced: a run let go while it waited for an approval
// and picked up again by another agent (as after a restart) publishes no
// run_started; the tracer of the agent that resumed it still traces the
// rest of the run, under a run span marked resumed.
func TestResumedRunIsTraced(t *testing.T) {
	spans := resumeTraced(t, contract.AgentConfig{Model: "m"},
		[]scripted.Reply{{Calls: []scripted.Call{{ID: "c1", Name: "guarded", Arguments: `{}`}}}},
		[]scripted.Reply{{Text: "done"}})
	want := []string{
		"- > invoke_agent baton",
		"invoke_agent baton > chat m",
		"invoke_agent baton > execute_tool guarded",
	}
	if diff := cmp.Diff(want, tree(spans)); diff != "" {
		t.Fatalf("spans of the resumed run mismatch (-want +got):\n%s", diff)
	}
	root := attrs(find(t, spans, "invoke_agent baton"))
	if root["baton.run.resumed"] != "true" || root["baton.run.id"] != "run_1" {
		t.Errorf("resumed run's attributes %v", root)
	}
}

// TestResumedDelegateIsTraced: a delegate's child waiting for an approval
// is resumed with its parent; the child publishes first, and its spans
// still nest under its parent's run.
func TestResumedDelegateIsTraced(t *testing.T) {
	cfg := contract.AgentConfig{Model: "m", Delegates: []contract.Delegate{{Name: "helper", Config: contract.AgentConfig{Model: "m", Tools: []contract.ToolDescriptor{{Name: "guarded"}}}}}}
	spans := resumeTraced(t, cfg,
		[]scripted.Reply{
			{Calls: []scripted.Call{{ID: "d1", Name: "delegate_helper", Arguments: `{"task":"help"}`}}},
			{Calls: []scripted.Call{{ID: "c1", Name: "guarded", Arguments: `{}`}}},
		},
		[]scripted.Reply{{Text: "helped"}, {Text: "done"}})
	want := []string{
		"- > invoke_agent baton",
		"invoke_agent baton > chat m",
		"invoke_agent baton > invoke_agent helper",
		"invoke_agent helper > chat",
		"invoke_agent helper > execute_tool guarded",
	}
	if diff := cmp.Diff(want, tree(spans)); diff != "" {
		t.Fatalf("spans of the resumed run mismatch (-want +got):\n%s", diff)
	}
	if root := attrs(find(t, spans, "invoke_agent baton")); root["baton.run.id"] != "run_1" {
		t.Errorf("resumed parent's attributes %v", root)
	}
	if child := attrs(find(t, spans, "invoke_agent helper")); child["gen_ai.tool.call.id"] != "d1" || child["gen_ai.agent.name"] != "helper" || child["baton.run.resumed"] != "true" {
		t.Errorf("resumed child's attributes %v", child)
	}
}
