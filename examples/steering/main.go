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

type searchArgs struct {
	Query string `json:"query"`
}

func main() {
	started := make(chan struct{}, 1)
	steered := make(chan struct{})
	// Sequential: the second search waits for the first, so it has not
	// started when the steer comes in, and is skipped.
	search := dispatch.MustFunc("search", "Search the docs.", func(ctx context.Context, a searchArgs) (string, error) {
		started <- struct{}{}
		// A slow search: it is still running when the steer comes in.
		select {
		case <-steered:
		case <-ctx.Done():
			return "", ctx.Err()
		}
		return "3 results for " + a.Query, nil
	}, dispatch.Sequential())
	tools, err := dispatch.NewToolBox(search)
	if err != nil {
		log.Fatal(err)
	}
	model := scripted.New(
		scripted.Reply{Text: "Searching.", Calls: []scripted.Call{
			{Name: "search", Arguments: `{"query":"retries"}`},
			{Name: "search", Arguments: `{"query":"backoff"}`},
		}},
		scripted.Reply{Text: "Here is a short answer about retries, as you asked."},
	)
	agent, err := conductor.CreateAgent(contract.AgentConfig{Model: "scripted"}, conductor.Deps{Model: conductor.Model{Provider: model}, Tools: conductor.Tools{Box: tools}})
	if err != nil {
		log.Fatal(err)
	}
	defer agent.Close()
	go func() {
		<-started
		defer close(steered)
		if err := agent.Steer(context.Background(), conductor.Text("keep it short, please")); err != nil {
			log.Print(err)
		}
	}()
	snap, err := agent.Submit(context.Background(), conductor.Text("How do retries work?"))
	if err != nil {
		log.Fatal(err)
	}
	for _, t := range snap.History.Turns() {
		if t.Text() != "" {
			fmt.Printf("%-9s %-6s %s\n", t.Role, t.Mark, t.Text())
		}
		for _, r := range t.Results() {
			fmt.Printf("%-9s %-6s %s\n", t.Role, "", r.Content)
		}
	}
}
