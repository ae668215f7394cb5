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
	"github.com/batonrt/baton/provider/scripted"
)

// started tells, once, that a span of the given name started.
type started struct {
	sdktrace.SpanProcessor
	name string
	seen chan struct{}
}

func (s started) OnStart(ctx context.Context, span sdktrace.ReadWriteSpan) {
	s.SpanProcessor.OnStart(ctx, span)
	if span.Name() == s.name {
		close(s.seen)
	}
}

// TestDetachMidRunEndsItsSpans: a host that detaches the tracer while a
// run is in flight will send it no more events, so no event would ever
// end the run's spans: detaching ends them, marked, rather than leaving
// them open, never exported and held for good.
func TestDetachMidRunEndsItsSpans(t *testing.T) {
	exp := tracetest.NewInMemoryExporter()
	chat := started{SpanProcessor: sdktrace.NewSimpleSpanProcessor(exp), name: "chat m", seen: make(chan struct{})}
	tp := sdktrace.NewTracerProvider(sdktrace.WithSpanProcessor(chat))
	defer tp.Shutdown(context.Background())
	agent, err := conductor.CreateAgent(contract.AgentConfig{Model: "m"}, conductor.Deps{
		Model: conductor.Model{Provider: scripted.New(scripted.Reply{Fail: &scripted.Failure{Hang: true}})},
		Env:   conductor.Env{SessionID: "s1", IDs: &conductor.CountingIDs{}},
	})
	if err != nil {
		t.Fatal(err)
	}
	defer agent.Close()
	detach := tracing.New(tp, tracing.Options{}).Attach(agent)
	ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
	defer cancel()
	done := make(chan error, 1)
	go func() {
		_, err := agent.Submit(ctx, conductor.Text("hello"))
		done <- err
	}()
	select {
	case <-chat.seen:
	case <-ctx.Done():
		t.Fatal("the model call was never traced")
	}
	detach()
	got := map[string]string{}
	for _, s := range exp.GetSpans() {
		got[s.Name] = attrs(s)["baton.tracing.detached"]
	}
	want := map[string]string{"invoke_agent baton": "true", "chat m": "true"}
	if diff := cmp.Diff(want, got); diff != "" {
		t.Errorf("ended spans mismatch (-want +got):\n%s", diff)
	}
	agent.Abort(t.Context(), contract.AbortNow)
	<-done
	agent.Close()
	if n := len(exp.GetSpans()); n != 2 {
		t.Errorf("%d spans after the run ended, want the 2 ended at detach", n)
	}
}
