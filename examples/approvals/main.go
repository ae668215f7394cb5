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

type deleteArgs struct {
	Path string `json:"path"`
}

func main() {
	del := dispatch.MustFunc("delete_file", "Delete a file.", func(ctx context.Context, a deleteArgs) (string, error) {
		return "deleted " + a.Path, nil
	}, dispatch.NeedsApproval())
	tools, err := dispatch.NewToolBox(del)
	if err != nil {
		log.Fatal(err)
	}
	model := scripted.New(
		scripted.Reply{Calls: []scripted.Call{
			{ID: "c1", Name: "delete_file", Arguments: `{"path":"build/cache"}`},
			{ID: "c2", Name: "delete_file", Arguments: `{"path":"/etc/passwd"}`},
		}},
		scripted.Reply{Text: "Cleared the cache; I was not allowed to touch /etc/passwd."},
	)
	agent, err := conductor.CreateAgent(contract.AgentConfig{Model: "scripted"}, conductor.Deps{Model: conductor.Model{Provider: model}, Tools: conductor.Tools{Box: tools}, People: conductor.People{Approver: conductor.ApproveLater}})
	if err != nil {
		log.Fatal(err)
	}
	defer agent.Close()
	agent.Subscribe(func(ev contract.RunEvent) {
		if ev.Kind != contract.EvApprovalRequested {
			return
		}
		ok := ev.Call.Arguments == `{"path":"build/cache"}`
		fmt.Printf("approve %s %s? %v\n", ev.Call.Name, ev.Call.Arguments, ok)
		d := conductor.Decision{Approved: ok}
		if !ok {
			d.Reason = "outside the project"
		}
		if err := agent.Approve(context.Background(), ev.Call.ID, d); err != nil {
			log.Print(err)
		}
	})
	// The run cannot end before both calls are decided, so the subscriber
	// has printed its lines by the time Submit returns.
	snap, err := agent.Submit(context.Background(), conductor.Text("Clean up."))
	if err != nil {
		log.Fatal(err)
	}
	// An approved call runs at once and a denied one is answered at once,
	// so they finish in no fixed order; the tool turn keeps their results
	// in call order.
	for _, t := range snap.History.Turns() {
		for _, r := range t.Results() {
			fmt.Printf("result %s: %s\n", r.CallID, r.Content)
		}
	}
	last, _ := snap.History.Last()
	fmt.Println("answer:", last.Text())
}
