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
)

// TestAbortedChildKeepsItsOwnFault: a delegate's child aborted with its
// parent faults itself, saying why, before its parent answers the
// delegate call; its span keeps the child's own error, whichever way the
// abort came, rather than the parent's answer taking it over.
func TestAbortedChildKeepsItsOwnFault(t *testing.T) {
	guarded := dispatch.MustFunc("guarded", "Needs a yes.", func(_ context.Context, in struct{}) (string, error) { return "ok", nil }, dispatch.NeedsApproval())
	for _, mode := range []contract.AbortMode{contract.AbortNow, contract.AbortAfterTools} {
		t.Run(string(mode), func(t *testing.T) {
			exp := tracetest.NewInMemoryExporter()
			tp := sdktrace.NewTracerProvider(sdktrace.WithSyncer(exp))
			defer tp.Shutdown(context.Background())
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
			defer agent.Close()
			defer tracing.New(tp, tracing.Options{}).Attach(agent)()
			asked := make(chan struct{}, 1)
			defer agent.Subscribe(func(ev contract.RunEvent) {
				if ev.Kind == contract.EvApprovalRequested {
					asked <- struct{}{}
				}
			})()
			ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
			defer cancel()
			done := make(chan error, 1)
			go func() {
				_, err := agent.Submit(ctx, conductor.Text("hello"))
				done <- err
			}()
			select {
			case <-asked:
			case <-ctx.Done():
				t.Fatal("the child never asked")
			}
			if err := agent.Abort(ctx, mode); err != nil {
				t.Fatal(err)
			}
			if err := <-done; err == nil {
				t.Fatal("the aborted run did not fault")
			}
			if err := agent.Flush(ctx); err != nil {
				t.Fatal(err)
			}
			span := find(t, exp.GetSpans(), "invoke_agent helper")
			got := []string{span.Status.Code.String(), span.Status.Description, attrs(span)["error.type"]}
			want := []string{"Error", "baton: aborted: run aborted: aborted by host", "aborted"}
			if diff := cmp.Diff(want, got); diff != "" {
				t.Errorf("child span status and error.type (-want +got):\n%s", diff)
			}
		})
	}
}
