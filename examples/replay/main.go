package main

import (
	"context"
	"fmt"
	"log"
	"slices"

	"github.com/batonrt/baton/cadence"
	"github.com/batonrt/baton/conductor"
	"github.com/batonrt/baton/contract"
	"github.com/batonrt/baton/dispatch"
	"github.com/batonrt/baton/provider/scripted"
	"github.com/batonrt/baton/store"
)

type addArgs struct {
	A, B int
}

var config = contract.AgentConfig{Model: "scripted"}

func addTool() dispatch.Tool {
	return dispatch.MustFunc("add", "Add two numbers.", func(ctx context.Context, a addArgs) (int, error) { return a.A + a.B, nil })
}

// record runs a session and returns its id and the config the agent ran
// under, its tools described by the box.
func record(ctx context.Context, st store.Store) (string, contract.AgentConfig, error) {
	tools, err := dispatch.NewToolBox(addTool())
	if err != nil {
		return "", contract.AgentConfig{}, err
	}
	model := scripted.New(
		scripted.Reply{Calls: []scripted.Call{{Name: "add", Arguments: `{"A":2,"B":3}`}}},
		scripted.Reply{Text: "2 + 3 = 5"},
	)
	agent, err := conductor.CreateAgent(config, conductor.Deps{Model: conductor.Model{Provider: model}, Tools: conductor.Tools{Box: tools}, Env: conductor.Env{Store: st, SessionID: "sum"}})
	if err != nil {
		return "", contract.AgentConfig{}, err
	}
	defer agent.Close()
	_, err = agent.Submit(ctx, conductor.Text("What is 2 + 3?"))
	return "sum", agent.Config(), err
}

// verify replays the session under the rules it ran with and returns the
// number of steps, or the first divergence (a *cadence.Divergence).
func verify(ctx context.Context, st store.Store, id string, cfg contract.AgentConfig) (int, error) {
	records, err := st.Records(ctx, id)
	if err != nil {
		return 0, err
	}
	_, err = cadence.New(cfg).Replay(cadence.InitialSnapshot(id), records)
	return len(records), err
}

func main() {
	ctx := context.Background()
	st := store.NewMemory()
	id, cfg, err := record(ctx, st)
	if err != nil {
		log.Fatal(err)
	}
	steps, err := verify(ctx, st, id, cfg)
	if err != nil {
		log.Fatal(err)
	}
	fmt.Printf("replayed %d steps: identical\n", steps)
	// Each submit records the config it ran under, so replaying with other
	// rules still folds the session as it ran. What replay catches is a
	// recording that no longer matches what the rules do with it: here the
	// model's tool call renamed after the fact.
	_, err = replayEdited(ctx, st, id, cfg)
	fmt.Println("with the reply edited:", err)
}

// replayEdited replays the session with its first recorded tool call
// renamed to a tool the agent does not have, and returns the divergence
// replay reports.
func replayEdited(ctx context.Context, st store.Store, id string, cfg contract.AgentConfig) (contract.RunSnapshot, error) {
	records, err := st.Records(ctx, id)
	if err != nil {
		return contract.RunSnapshot{}, err
	}
	records = slices.Clone(records)
	for i, rec := range records {
		reply, ok := rec.Signal.(contract.ModelReplied)
		if !ok || len(reply.Reply.Calls()) == 0 {
			continue
		}
		blocks := slices.Clone(reply.Reply.Blocks)
		for j, b := range blocks {
			if b.Kind == contract.BlockToolCall && b.Call != nil {
				call := *b.Call
				call.Name = "multiply"
				blocks[j].Call = &call
				break
			}
		}
		reply.Reply.Blocks = blocks
		records[i].Signal = reply
		break
	}
	return cadence.New(cfg).Replay(cadence.InitialSnapshot(id), records)
}
