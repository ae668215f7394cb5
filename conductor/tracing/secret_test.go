package tracing_test

import (
	"context"
	"strings"
	"testing"
	"time"

	sdktrace "go.opentelemetry.io/otel/sdk/trace"
	"go.opentelemetry.io/otel/sdk/trace/tracetest"

	"github.com/batonrt/baton/conductor"
	"github.com/batonrt/baton/conductor/tracing"
	"github.com/batonrt/baton/contract"
	"github.com/batonrt/baton/provider/scripted"
)

// TestErrorsLeaveOutCredentials: a model's failure often quotes the
// request's URL, and with it a key a proxy or gateway takes in the query
// or in the user part. Spans go to a collector outside the process, so
// what they say of errors (statuses, exception events, retry reasons)
// names neither, as the wire's errors do not.
func TestErrorsLeaveOutCredentials(t *testing.T) {
	const leak = `Post "https://bob:hunter2@gateway.example.test/v1/chat/completions?api_key=sk-live0123456789abcdef": connection refused`
	model := scripted.New(
		scripted.Reply{Fail: &scripted.Failure{Status: 503, Message: leak}},
		scripted.Reply{Fail: &scripted.Failure{Status: 401, Message: leak}},
	)
	exp := tracetest.NewInMemoryExporter()
	tp := sdktrace.NewTracerProvider(sdktrace.WithSyncer(exp))
	defer tp.Shutdown(context.Background())
	agent, err := conductor.CreateAgent(contract.AgentConfig{Model: "m"}, conductor.Deps{
		Model: conductor.Model{Provider: model, Backoff: time.Millisecond, MaxBackoff: time.Millisecond, NoFallback: true},
		Env:   conductor.Env{SessionID: "s1", IDs: &conductor.CountingIDs{}},
	})
	if err != nil {
		t.Fatal(err)
	}
	defer agent.Close()
	defer tracing.New(tp, tracing.Options{}).Attach(agent)()
	ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
	defer cancel()
	if _, err := agent.Submit(ctx, conductor.Text("hello")); err == nil {
		t.Fatal("the run did not fault")
	}
	if err := agent.Flush(ctx); err != nil {
		t.Fatal(err)
	}
	var said []string
	retried := false
	for _, s := range exp.GetSpans() {
		said = append(said, s.Status.Description)
		for _, kv := range s.Attributes {
			said = append(said, kv.Value.String())
		}
		for _, e := range s.Events {
			retried = retried || e.Name == "model_retry"
			for _, kv := range e.Attributes {
				said = append(said, kv.Value.String())
			}
		}
	}
	if !retried {
		t.Error("no model_retry event was recorded")
	}
	for _, secret := range []string{"hunter2", "sk-live0123456789abcdef", "gateway.example.test"} {
		for _, s := range said {
			if strings.Contains(s, secret) {
				t.Errorf("a span says %q", s)
			}
		}
	}
}
