package main

import (
	"context"
	"fmt"
	"iter"
	"log"
	"strings"
	"time"

	"github.com/batonrt/baton/conductor"
	"github.com/batonrt/baton/contract"
	"github.com/batonrt/baton/dispatch"
	"github.com/batonrt/baton/turn"
)

type rulesModel struct{}

func (rulesModel) Stream(ctx context.Context, req contract.ModelRequest) iter.Seq2[turn.Chunk, error] {
	return func(yield func(turn.Chunk, error) bool) {
		last, _ := req.History.Last()
		if last.Role == contract.RoleTool {
			yield(turn.Chunk{Kind: turn.ChunkText, Text: "The clock says " + last.Results()[0].Content + "."}, nil)
			yield(turn.Chunk{Kind: turn.ChunkStop, Stop: contract.StopEndTurn}, nil)
			return
		}
		if strings.Contains(last.Text(), "time") {
			for _, c := range []turn.Chunk{
				{Kind: turn.ChunkToolCallStart, Index: 0, CallID: "clock_1", Name: "clock"},
				{Kind: turn.ChunkToolCallArgs, Index: 0, Text: "{}"},
				{Kind: turn.ChunkToolCallEnd, Index: 0},
				{Kind: turn.ChunkUsage, Usage: contract.Usage{InputTokens: 12, OutputTokens: 3}},
				{Kind: turn.ChunkStop, Stop: contract.StopToolUse},
			} {
				if !yield(c, nil) {
					return
				}
			}
			return
		}
		for _, w := range strings.Fields(last.Text()) {
			if ctx.Err() != nil {
				yield(turn.Chunk{}, ctx.Err())
				return
			}
			if !yield(turn.Chunk{Kind: turn.ChunkText, Text: strings.ToUpper(w) + " "}, nil) {
				return
			}
		}
		yield(turn.Chunk{Kind: turn.ChunkStop, Stop: contract.StopEndTurn}, nil)
	}
}

func main() {
	clock := dispatch.MustFunc("clock", "The current time.", func(ctx context.Context, _ struct{}) (string, error) {
		return time.Date(2025, 1, 2, 15, 4, 0, 0, time.UTC).Format(time.Kitchen), nil
	})
	tools, err := dispatch.NewToolBox(clock)
	if err != nil {
		log.Fatal(err)
	}
	agent, err := conductor.CreateAgent(contract.AgentConfig{Model: "rules-v1"}, conductor.Deps{Model: conductor.Model{Provider: rulesModel{}}, Tools: conductor.Tools{Box: tools}})
	if err != nil {
		log.Fatal(err)
	}
	defer agent.Close()
	for _, prompt := range []string{"hello there", "what time is it?"} {
		snap, err := agent.Submit(context.Background(), conductor.Text(prompt))
		if err != nil {
			log.Fatal(err)
		}
		last, _ := snap.History.Last()
		fmt.Printf("%s -> %s\n", prompt, strings.TrimSpace(last.Text()))
	}
}
