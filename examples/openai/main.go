package main

import (
	"context"
	"fmt"
	"log"
	"os"
	"time"

	"github.com/batonrt/baton/conductor"
	"github.com/batonrt/baton/contract"
	"github.com/batonrt/baton/dispatch"
	"github.com/batonrt/baton/provider/openai"
)

type addArgs struct {
	A float64 `json:"a"`
	B float64 `json:"b"`
}

func main() {
	if os.Getenv("OPENAI_API_KEY") == "" && os.Getenv("OPENAI_BASE_URL") == "" {
		fmt.Println("skipping: set OPENAI_API_KEY (or OPENAI_BASE_URL for a local server) to run this example")
		return
	}
	model := os.Getenv("OPENAI_MODEL")
	if model == "" {
		model = "gpt-4o-mini"
	}
	add := dispatch.MustFunc("add", "Add two numbers.", func(ctx context.Context, a addArgs) (float64, error) { return a.A + a.B, nil })
	tools, err := dispatch.NewToolBox(add)
	if err != nil {
		log.Fatal(err)
	}
	agent, err := conductor.CreateAgent(contract.AgentConfig{Model: model, System: "Use the add tool for arithmetic."}, conductor.Deps{Model: conductor.Model{Provider: openai.NewFromEnv()}, Tools: conductor.Tools{Box: tools}})
	if err != nil {
		log.Fatal(err)
	}
	defer agent.Close()
	agent.Subscribe(func(ev contract.RunEvent) {
		if ev.Kind == contract.EvTextDelta {
			fmt.Print(ev.Text)
		}
	})
	ctx, cancel := context.WithTimeout(context.Background(), 2*time.Minute)
	defer cancel()
	snap, err := agent.Submit(ctx, conductor.Text("What is 1234.5 + 678.25? Use the tool."))
	if err != nil {
		log.Fatal(err)
	}
	// Submit returns once the run is committed; Flush waits until the
	// subscriber has printed the answer's last words too.
	if err := agent.Flush(ctx); err != nil {
		log.Fatal(err)
	}
	fmt.Printf("\n(%s: %d model calls, %d tokens in, %d out)\n", snap.Phase, snap.RunUsage.ModelCalls, snap.RunUsage.InputTokens, snap.RunUsage.OutputTokens)
}
