package conductor_test

import (
	"context"
	"fmt"

	"github.com/batonrt/baton/conductor"
	"github.com/batonrt/baton/contract"
	"github.com/batonrt/baton/dispatch"
	"github.com/batonrt/baton/provider/scripted"
)

func ExampleAgent_Submit_results() {
	// The terminal snapshot answers what a host wants from a run without
	// reading its history.
	shout := dispatch.MustFunc("shout", "Upper-cases its text.", func(_ context.Context, in struct {
		Text string `json:"text"`
	}) (string, error) {
		return "HELLO", nil
	})
	agent, _ := conductor.CreateAgent(contract.AgentConfig{Model: "scripted"}, exampleDeps(scripted.New(
		scripted.Reply{Calls: []scripted.Call{{ID: "c1", Name: "shout", Arguments: `{"text":"hello"}`}}},
		scripted.Reply{Text: "It says HELLO."},
	), shout))
	defer agent.Close()
	snap, _ := agent.Submit(context.Background(), conductor.Text("shout hello"))
	fmt.Println(snap.FinalText())
	for _, c := range snap.ToolCalls() {
		fmt.Println(c.Call.Name, c.Call.Arguments, "->", c.Result.Content)
	}
	// WallTime comes from the timestamps the signals carry.
	fmt.Println(snap.TurnCount(), "model calls, wall time", snap.WallTime() > 0)
	// Output:
	// It says HELLO.
	// shout {"text":"hello"} -> HELLO
	// 2 model calls, wall time true
}

func ExampleAgent_Submit_failedRun() {
	// A run that failed stays in the session, but the next run's model
	// call sees only a note saying so (AgentConfig.FailedRuns).
	script := scripted.New(
		scripted.Reply{Fail: &scripted.Failure{Status: 400, Message: "refused"}},
		scripted.Reply{Text: "Fresh start."},
	)
	agent, _ := conductor.CreateAgent(contract.AgentConfig{Model: "scripted"}, exampleDeps(script))
	defer agent.Close()
	_, err := agent.Submit(context.Background(), conductor.Text("first"))
	fmt.Println(err != nil)
	_, _ = agent.Submit(context.Background(), conductor.Text("second"))
	for _, turn := range script.Requests()[1].History.Turns() {
		fmt.Printf("%s %.40q\n", turn.Role, turn.Text())
	}
	// Output:
	// true
	// user "[The previous request ended with an erro"
	// user "second"
}
