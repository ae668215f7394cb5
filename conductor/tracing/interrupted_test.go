package tracing_test

import (
	"context"
	"testing"
	"time"

	"go.opentelemetry.io/otel/codes"
	sdktrace "go.opentelemetry.io/otel/sdk/trace"
	"go.opentelemetry.io/otel/sdk/trace/tracetest"

	"github.com/batonrt/baton/conductor"
	"github.com/batonrt/baton/conductor/tracing"
	"github.com/batonrt/baton/contract"
	"github.com/batonrt/baton/provider/scripted"
)

// TestInterruptedModelCallIsAnError: a model call cut short by the run's
// end (an abort, the submit's context cancelled, the agent closed) got no
// reply; its chat span must not end as if it had succeeded.
func TestInterruptedModelCallIsAnError(t *testing.T) {
	for _, tc := range []struct {
		name string
		stop func(*conductor.Agent, context.CancelFunc)
	}{
		{"abort", func(a *conductor.Agent, _ context.CancelFunc) { a.Abort(t.Context(), contract.AbortNow) }},
		{"cancel", func(_ *conductor.Agent, cancel context.CancelFunc) { cancel() }},
		{"close", func(a *conductor.Agent, _ context.CancelFunc) { a.Close() }},
	} {
		t.Run(tc.name, func(t *testing.T) {
			exp := tracetest.NewInMemoryExporter()
			tp := sdktrace.NewTracerProvider(sdktrace.WithSyncer(exp))
			defer tp.Shutdown(context.Background())
			agent, err := conductor.CreateAgent(contract.AgentConfig{Model: "m"}, conductor.Deps{
				Model: conductor.Model{Provider: scripted.New(scripted.Reply{Fail: &scripted.Failure{Hang: true}})},
				Env:   conductor.Env{SessionID: "s1", IDs: &conductor.CountingIDs{}},
			})
			if err != nil {
				t.Fatal(err)
			}
			defer agent.Close()
			tracing.New(tp, tracing.Options{}).Attach(agent)
			asking := make(chan struct{}, 1)
			agent.Subscribe(func(ev contract.RunEvent) {
				if ev.Kind == contract.EvTurnStarted {
					asking <- struct{}{}
				}
			})
			ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
			defer cancel()
			submitCtx, stopSubmit := context.WithCancel(ctx)
			defer stopSubmit()
			done := make(chan error, 1)
			go func() {
				_, err := agent.Submit(submitCtx, conductor.Text("hello"))
				done <- err
			}()
			select {
			case <-asking:
			case <-ctx.Done():
				t.Fatal("the model was never called")
			}
			tc.stop(agent, stopSubmit)
			if err := <-done; err == nil {
				t.Fatal("the run did not fault")
			}
			agent.Close() // delivers the events still queued
			chat := find(t, exp.GetSpans(), "chat m")
			if chat.Status.Code != codes.Error || attrs(chat)["error.type"] != "aborted" {
				t.Errorf("interrupted chat span: status %v, attributes %v", chat.Status, attrs(chat))
			}
		})
	}
}
