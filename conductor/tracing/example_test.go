package tracing_test

import (
	"context"
	"fmt"
	"slices"

	sdktrace "go.opentelemetry.io/otel/sdk/trace"
	"go.opentelemetry.io/otel/sdk/trace/tracetest"

	"github.com/batonrt/baton/conductor"
	"github.com/batonrt/baton/conductor/tracing"
	"github.com/batonrt/baton/contract"
	"github.com/batonrt/baton/dispatch"
	"github.com/batonrt/baton/provider/scripted"
)

func ExampleTracer_Attach() {
	exp := tracetest.NewInMemoryExporter()
	tp := sdktrace.NewTracerProvider(sdktrace.WithSyncer(exp))
	defer tp.Shutdown(context.Background())

	box, _ := dispatch.NewToolBox(echo)
	model := scripted.New(
		scripted.Reply{Calls: []scripted.Call{{ID: "c1", Name: "echo", Arguments: `{"text":"hi"}`}}},
		scripted.Reply{Text: "done"},
	)
	agent, err := conductor.CreateAgent(contract.AgentConfig{Model: "gpt-4o"}, conductor.Deps{Model: conductor.Model{Provider: model}, Tools: conductor.Tools{Box: box}})
	if err != nil {
		panic(err)
	}
	tracing.New(tp, tracing.Options{Provider: "openai", Model: "gpt-4o"}).Attach(agent)
	agent.Submit(context.Background(), conductor.Text("hello"))
	agent.Close() // delivers the events still queued for the tracer

	var names []string
	for _, s := range exp.GetSpans() {
		names = append(names, s.Name)
	}
	slices.Sort(names)
	fmt.Println(names)
	// Output:
	// [chat gpt-4o chat gpt-4o execute_tool echo invoke_agent baton]
}
