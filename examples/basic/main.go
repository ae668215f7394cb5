package main

import (
	"context"
	"fmt"
	"log"

	"github.com/batonrt/baton/conductor"
	"github.com/batonrt/baton/contract"
	"github.com/batonrt/baton/dispatch"
	"github.com/batonrt/baton/provider/scripted"
)

type weatherArgs struct {
	City string `json:"city" jsonschema:"the city to look up"`
}

func main() {
	weather := dispatch.MustFunc("get_weather", "Current weather in a city.", func(ctx context.Context, a weatherArgs) (string, error) {
		return "sunny, 21°C in " + a.City, nil
	})
	tools, err := dispatch.NewToolBox(weather)
	if err != nil {
		log.Fatal(err)
	}
	// The scripted provider plays the model's side; swap in
	// openai.NewFromEnv() or anthropic.NewFromEnv() for a real one.
	model := scripted.New(
		scripted.Reply{Text: "Let me check.", Calls: []scripted.Call{{Name: "get_weather", Arguments: `{"city":"Paris"}`}}},
		scripted.Reply{Text: "It is sunny and 21°C in Paris."},
	)
	agent, err := conductor.CreateAgent(contract.AgentConfig{Model: "scripted"}, conductor.Deps{Model: conductor.Model{Provider: model}, Tools: conductor.Tools{Box: tools}})
	if err != nil {
		log.Fatal(err)
	}
	defer agent.Close()
	unsubscribe := agent.Subscribe(func(ev contract.RunEvent) {
		switch ev.Kind {
		case contract.EvToolCall:
			fmt.Printf("\n[calling %s %s]\n", ev.Call.Name, ev.Call.Arguments)
		case contract.EvToolResult:
			fmt.Printf("[%s said: %s]\n", ev.Result.Name, ev.Result.Content)
		}
	})
	defer unsubscribe()
	ctx := context.Background()
	snap, err := agent.Submit(ctx, conductor.Text("What's the weather in Paris?"))
	if err != nil {
		log.Fatal(err)
	}
	// Submit returns once the run is committed; Flush waits until the
	// subscriber has printed its last events, so the answer comes after.
	if err := agent.Flush(ctx); err != nil {
		log.Fatal(err)
	}
	last, _ := snap.History.Last()
	fmt.Printf("answer: %s\n(%s after %d model calls)\n", last.Text(), snap.Phase, snap.RunUsage.ModelCalls)
}
