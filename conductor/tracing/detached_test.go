package tracing_test

import (
	"context"
	"testing"
	"time"

	sdktrace "go.opentelemetry.io/otel/sdk/trace"
	"go.opentelemetry.io/otel/sdk/trace/tracetest"

	"github.com/batonrt/baton/conductor"
	"github.com/batonrt/baton/conductor/tracing"
	"github.com/batonrt/baton/contract"
	"github.com/batonrt/baton/dispatch"
	"github.com/batonrt/baton/provider/scripted"
)

// TestClosedWhileAwaitingApprovalEndsRunSpan: an agent closed while its
// run waits for an approval leaves the run in the store for a later
// Resume; the tracer ends the run's span, marked detached, instead of
// keeping it open (never exported) for ever.
func TestClosedWhileAwaitingApprovalEndsRunSpan(t *testing.T) {
	exp := tracetest.NewInMemoryExporter()
	tp := sdktrace.NewTracerProvider(sdktrace.WithSyncer(exp))
	defer tp.Shutdown(context.Background())
	guarded := dispatch.MustFunc("guarded", "Needs a yes.", func(_ context.Context, in struct{}) (string, error) { return "ok", nil }, dispatch.NeedsApproval())
	box, _ := dispatch.NewToolBox(guarded)
	agent, err := conductor.CreateAgent(contract.AgentConfig{Model: "m"}, conductor.Deps{
		Model:  conductor.Model{Provider: scripted.New(scripted.Reply{Calls: []scripted.Call{{ID: "c1", Name: "guarded", Arguments: `{}`}}})},
		Tools:  conductor.Tools{Box: box},
		People: conductor.People{Approver: conductor.ApproveLater},
		Env:    conductor.Env{SessionID: "s1", IDs: &conductor.CountingIDs{}},
	})
	if err != nil {
		t.Fatal(err)
	}
	tracing.New(tp, tracing.Options{}).Attach(agent)
	closeWhenAsked(t, agent)
	for _, s := range exp.GetSpans() {
		if s.Name == "invoke_agent baton" {
			for _, a := range s.Attributes {
				if a.Key == "baton.run.detached" && a.Value.AsBool() {
					return
				}
			}
			t.Fatalf("the run's span ended without baton.run.detached: %v", s.Attributes)
		}
	}
	var names []string
	for _, s := range exp.GetSpans() {
		names = append(names, s.Name)
	}
	t.Errorf("after Close the run's span was never ended (exported: %v)", names)
}

// closeWhenAsked submits "hello" to agent and closes it once its run
// waits for an approval, leaving the run in flight in its session.
func closeWhenAsked(t *testing.T, agent *conductor.Agent) {
	t.Helper()
	asked := make(chan struct{})
	agent.Subscribe(func(ev contract.RunEvent) {
		if ev.Kind == contract.EvApprovalRequested {
			close(asked)
		}
	})
	done := make(chan struct{})
	go func() {
		defer close(done)
		agent.Submit(context.Background(), conductor.Text("hello"))
	}()
	select {
	case <-asked:
	case <-time.After(10 * time.Second):
		t.Fatal("no approval was asked for")
	}
	agent.Close()
	<-done
}
