package conductor_test

import (
	"context"
	"fmt"
	"time"

	"github.com/batonrt/baton/conductor"
	"github.com/batonrt/baton/contract"
	"github.com/batonrt/baton/dispatch"
	"github.com/batonrt/baton/provider/scripted"
)

func ExampleAgent_Approve() {
	// With ApproveLater the host answers: the run waits in
	// awaiting_approval, and the pending calls are in the snapshot.
	deploy := dispatch.MustFunc("deploy", "Deploys a version.", func(_ context.Context, in struct {
		Version string `json:"version"`
	}) (string, error) {
		return "deployed " + in.Version, nil
	}, dispatch.NeedsApproval())
	model := scripted.New(
		scripted.Reply{Calls: []scripted.Call{{ID: "c1", Name: "deploy", Arguments: `{"version":"v2"}`}}},
		scripted.Reply{Text: "v2 is live."},
	)
	deps := exampleDeps(model, deploy)
	deps.People.Approver = conductor.ApproveLater
	agent, _ := conductor.CreateAgent(contract.AgentConfig{Model: "scripted"}, deps)
	defer agent.Close()
	done := make(chan contract.RunSnapshot)
	go func() {
		snap, _ := agent.Submit(context.Background(), conductor.Text("ship v2"))
		done <- snap
	}()
	for agent.Snapshot().Phase != contract.PhaseAwaitingApproval {
		time.Sleep(time.Millisecond)
	}
	for _, call := range agent.Snapshot().PendingApprovals() {
		fmt.Println("approving", call.Name, call.Arguments)
		_ = agent.Approve(context.Background(), call.ID, conductor.Decision{Approved: true, Scope: contract.ScopeOnce})
	}
	snap := <-done
	last, _ := snap.History.Last()
	fmt.Println(snap.Phase+":", last.Text())
	// Output:
	// approving deploy {"version":"v2"}
	// settled: v2 is live.
}

func ExampleAgent_FollowUp() {
	// A follow-up waits until the run would settle, then continues it.
	model := scripted.New(
		scripted.Reply{Text: "Here is the summary.", FirstDelay: 100 * time.Millisecond},
		scripted.Reply{Text: "And here it is in French."},
	)
	agent, _ := conductor.CreateAgent(contract.AgentConfig{Model: "scripted"}, exampleDeps(model))
	defer agent.Close()
	done := make(chan contract.RunSnapshot)
	go func() {
		snap, _ := agent.Submit(context.Background(), conductor.Text("summarise the report"))
		done <- snap
	}()
	for agent.Snapshot().Phase != contract.PhaseAwaitingModel {
		time.Sleep(time.Millisecond)
	}
	_ = agent.FollowUp(context.Background(), conductor.Text("then translate it"))
	snap := <-done
	for _, turn := range snap.History.Turns() {
		fmt.Printf("%s%s: %s\n", turn.Role, mark(turn), turn.Text())
	}
	// Output:
	// user: summarise the report
	// assistant: Here is the summary.
	// user (follow_up): then translate it
	// assistant: And here it is in French.
}

func ExampleAgent_Abort() {
	// Abort after the model's reply: the reply is kept, its tool calls get
	// "aborted" results so history stays well formed, and nothing runs.
	model := scripted.New(scripted.Reply{
		Calls:      []scripted.Call{{ID: "c1", Name: "shout", Arguments: `{"text":"too late"}`}},
		FirstDelay: 100 * time.Millisecond,
	})
	agent, _ := conductor.CreateAgent(contract.AgentConfig{Model: "scripted"}, exampleDeps(model, shout()))
	defer agent.Close()
	done := make(chan error)
	var snap contract.RunSnapshot
	go func() {
		var err error
		snap, err = agent.Submit(context.Background(), conductor.Text("go"))
		done <- err
	}()
	for agent.Snapshot().Phase != contract.PhaseAwaitingModel {
		time.Sleep(time.Millisecond)
	}
	_ = agent.Abort(context.Background(), contract.AbortAfterReply)
	err := <-done
	fmt.Println(err)
	for _, r := range snap.History.Turns()[2].Results() {
		fmt.Println(r.CallID, r.Content)
	}
	// Output:
	// baton: aborted: run aborted: aborted by host
	// c1 aborted: run aborted: aborted by host
}

func ExampleAgent_Events() {
	agent, _ := conductor.CreateAgent(contract.AgentConfig{Model: "scripted"},
		exampleDeps(scripted.New(scripted.Reply{Text: "streamed word by word"})))
	defer agent.Close()
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	events := agent.Events(ctx) // the tap is open from here on
	go agent.Submit(context.Background(), conductor.Text("hi"))
	var text string
	for ev := range events {
		if ev.Kind == contract.EvTextDelta {
			text += ev.Text
		}
		if ev.Kind == contract.EvRunSettled {
			break
		}
	}
	fmt.Println(text)
	// Output:
	// streamed word by word
}

func ExampleAgent_EventsSince() {
	// A client that saw events up to seq 2 gets the committed events after
	// it, re-projected from the store.
	agent, _ := conductor.CreateAgent(contract.AgentConfig{Model: "scripted"},
		exampleDeps(scripted.New(scripted.Reply{Text: "hello"})))
	defer agent.Close()
	_, _ = agent.Submit(context.Background(), conductor.Text("hi"))
	missed, _ := agent.EventsSince(context.Background(), 1)
	for _, ev := range missed {
		fmt.Println(ev.Seq, ev.Kind)
	}
	// Output:
	// 2 turn_started
	// 3 turn_completed
	// 4 run_settled
}

func ExampleOutput() {
	type forecast struct {
		City  string  `json:"city"`
		TempC float64 `json:"temp_c"`
	}
	out, err := conductor.OutputOf[forecast]("forecast")
	if err != nil {
		panic(err)
	}
	model := scripted.New(
		scripted.Reply{Text: "Cold."}, // not JSON: sent back with the reason
		scripted.Reply{Text: `{"city":"Oslo","temp_c":-3}`},
	)
	agent, err := conductor.CreateAgent(contract.AgentConfig{Model: "scripted", Output: out}, exampleDeps(model))
	if err != nil {
		panic(err)
	}
	defer agent.Close()
	snap, err := agent.Submit(context.Background(), conductor.Text("weather in Oslo?"))
	if err != nil {
		panic(err)
	}
	f, err := conductor.Output[forecast](snap)
	fmt.Printf("%+v %v, %d model calls\n", f, err, snap.RunUsage.ModelCalls)
	// Output:
	// {City:Oslo TempC:-3} <nil>, 2 model calls
}
