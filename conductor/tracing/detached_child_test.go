package tracing_test

import (
	"context"
	"slices"
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
)

// TestClosedWhileChildAwaitsApprovalMarksEverySpanItEnds: an agent
// closed while a delegate's child waits for an approval lets the whole
// run go; every span ended then (the child's run, the delegate call and
// the child's waiting call, not only the root) is marked detached, so a
// trace viewer tells them from spans that finished.
func TestClosedWhileChildAwaitsApprovalMarksEverySpanItEnds(t *testing.T) {
	exp := tracetest.NewInMemoryExporter()
	tp := sdktrace.NewTracerProvider(sdktrace.WithSyncer(exp))
	defer tp.Shutdown(context.Background())
	guarded := dispatch.MustFunc("guarded", "Needs a yes.", func(_ context.Context, in struct{}) (string, error) { return "ok", nil }, dispatch.NeedsApproval())
	child := contract.AgentConfig{Model: "m", Tools: []contract.ToolDescriptor{{Name: "guarded"}}}
	agent, err := conductor.CreateAgent(contract.AgentConfig{Model: "m", Delegates: []contract.Delegate{{Name: "helper", Config: child}}}, conductor.Deps{
		Model: conductor.Model{Provider: scripted.New(
			scripted.Reply{Calls: []scripted.Call{{ID: "d1", Name: "delegate_helper", Arguments: `{"task":"x"}`}}},
			scripted.Reply{Calls: []scripted.Call{{ID: "g1", Name: "guarded", Arguments: `{}`}}},
		)},
		Tools:  conductor.Tools{Box: dispatch.MustToolBox(guarded)},
		People: conductor.People{Approver: conductor.ApproveLater},
		Env:    conductor.Env{SessionID: "s1", IDs: &conductor.CountingIDs{}},
	})
	if err != nil {
		t.Fatal(err)
	}
	tracing.New(tp, tracing.Options{}).Attach(agent)
	closeWhenAsked(t, agent)
	var got []string
	for _, s := range exp.GetSpans() {
		got = append(got, s.Name+" detached="+attrs(s)["baton.run.detached"])
	}
	slices.Sort(got)
	want := []string{
		"chat m detached=",
		"chat m detached=",
		"execute_tool delegate_helper detached=true",
		"execute_tool guarded detached=true",
		"invoke_agent baton detached=true",
		"invoke_agent helper detached=true",
	}
	if diff := cmp.Diff(want, got); diff != "" {
		t.Errorf("spans ended by Close and their mark (-want +got):\n%s", diff)
	}
}

// TestDetachWhileChildRunsMarksEverySpanItEnds: detaching the tracer
// while a delegate's child waits on its model ends the child's spans and
// the delegate call's with the root's, each marked, not only the root
// run's and its model call's.
func TestDetachWhileChildRunsMarksEverySpanItEnds(t *testing.T) {
	exp := tracetest.NewInMemoryExporter()
	tp := sdktrace.NewTracerProvider(sdktrace.WithSyncer(exp))
	defer tp.Shutdown(context.Background())
	agent, err := conductor.CreateAgent(helperCfg, conductor.Deps{
		Model: conductor.Model{Provider: scripted.New(
			scripted.Reply{Calls: []scripted.Call{{ID: "d1", Name: "delegate_helper", Arguments: `{"task":"x"}`}}},
			scripted.Reply{Fail: &scripted.Failure{Hang: true}},
		)},
		Env: conductor.Env{SessionID: "s1", IDs: &conductor.CountingIDs{}},
	})
	if err != nil {
		t.Fatal(err)
	}
	defer agent.Close()
	detach := tracing.New(tp, tracing.Options{}).Attach(agent)
	ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
	defer cancel()
	asking := awaitEvent(agent, contract.EvTurnStarted, 1)
	done := make(chan error, 1)
	go func() {
		_, err := agent.Submit(ctx, conductor.Text("hello"))
		done <- err
	}()
	waitOrFail(ctx, t, asking, "the child never called its model")
	if err := agent.Flush(ctx); err != nil {
		t.Fatal(err)
	}
	detach()
	var got []string
	for _, s := range exp.GetSpans() {
		got = append(got, s.Name+" detached="+attrs(s)["baton.tracing.detached"])
	}
	slices.Sort(got)
	want := []string{
		"chat m detached=",
		"chat m detached=true",
		"execute_tool delegate_helper detached=true",
		"invoke_agent baton detached=true",
		"invoke_agent helper detached=true",
	}
	if diff := cmp.Diff(want, got); diff != "" {
		t.Errorf("spans ended by detaching and their mark (-want +got):\n%s", diff)
	}
	agent.Abort(ctx, contract.AbortNow)
	<-done
}
