package conductor_test

import (
	"context"
	"fmt"
	"strings"
	"time"

	"github.com/batonrt/baton/conductor"
	"github.com/batonrt/baton/contract"
	"github.com/batonrt/baton/dispatch"
	"github.com/batonrt/baton/provider/scripted"
	"github.com/batonrt/baton/store"
)

type upperIn struct {
	Text string `json:"text" jsonschema:"the text to shout"`
}

func shout() dispatch.Tool {
	return dispatch.MustFunc("shout", "Upper-cases its text.", func(_ context.Context, in upperIn) (string, error) {
		out := []byte(in.Text)
		for i, c := range out {
			if c >= 'a' && c <= 'z' {
				out[i] = c - 32
			}
		}
		return string(out), nil
	})
}

func exampleDeps(p *scripted.Script, tools ...dispatch.Tool) conductor.Deps {
	return conductor.Deps{
		Model: conductor.Model{Provider: p},
		Tools: conductor.Tools{Box: dispatch.MustToolBox(tools...)},
		Env:   conductor.Env{SessionID: "example", Clock: &conductor.FixedClock{Start: time.Date(2026, 1, 1, 0, 0, 0, 0, time.UTC), Step: time.Second}, IDs: &conductor.CountingIDs{}},
	}
}

func ExampleCreateAgent() {
	// Every bad field is named at once, before anything runs.
	_, err := conductor.CreateAgent(contract.AgentConfig{MaxTurns: -1}, conductor.Deps{})
	fmt.Println(err)

	agent, err := conductor.CreateAgent(contract.AgentConfig{Model: "scripted"},
		exampleDeps(scripted.New(scripted.Reply{Text: "hello"}), shout()))
	if err != nil {
		panic(err)
	}
	defer agent.Close()
	fmt.Println(agent.SessionID(), agent.Snapshot().Phase)
	// Output:
	// baton: config: invalid agent: Deps.Model.Provider is nil; Model is empty; MaxTurns must be in 1..100000, got -1
	// example idle
}

// ExampleAgent_Config: tools are declared once, in the box. A config
// that names some of them offers those, as the box describes them.
func ExampleAgent_Config() {
	whisper := dispatch.MustFunc("whisper", "Lower-cases its text.", func(_ context.Context, in upperIn) (string, error) {
		return strings.ToLower(in.Text), nil
	})
	deps := exampleDeps(scripted.New(), shout(), whisper)
	all, err := conductor.CreateAgent(contract.AgentConfig{Model: "scripted"}, deps)
	if err != nil {
		panic(err)
	}
	defer all.Close()
	picked, err := conductor.CreateAgent(contract.AgentConfig{Model: "scripted", Tools: []contract.ToolDescriptor{{Name: "shout"}}}, deps)
	if err != nil {
		panic(err)
	}
	defer picked.Close()
	for _, a := range []*conductor.Agent{all, picked} {
		for _, d := range a.Config().Tools {
			fmt.Printf("%s: %s %s\n", d.Name, d.Description, d.InputSchema)
		}
		fmt.Println("--")
	}
	// Output:
	// shout: Upper-cases its text. {"type":"object","properties":{"text":{"type":"string","description":"the text to shout"}},"required":["text"],"additionalProperties":false}
	// whisper: Lower-cases its text. {"type":"object","properties":{"text":{"type":"string","description":"the text to shout"}},"required":["text"],"additionalProperties":false}
	// --
	// shout: Upper-cases its text. {"type":"object","properties":{"text":{"type":"string","description":"the text to shout"}},"required":["text"],"additionalProperties":false}
	// --
}

func ExampleAgent_Submit() {
	model := scripted.New(
		scripted.Reply{Calls: []scripted.Call{{ID: "c1", Name: "shout", Arguments: `{"text":"hello"}`}}},
		scripted.Reply{Text: "The tool said HELLO."},
	)
	agent, _ := conductor.CreateAgent(contract.AgentConfig{Model: "scripted"}, exampleDeps(model, shout()))
	defer agent.Close()

	snap, err := agent.Submit(context.Background(), conductor.Text("shout hello"))
	if err != nil {
		panic(err)
	}
	for _, turn := range snap.History.Turns() {
		for _, b := range turn.Blocks {
			switch b.Kind {
			case contract.BlockText:
				fmt.Printf("%s: %s\n", turn.Role, b.Text)
			case contract.BlockToolCall:
				fmt.Printf("%s: call %s %s\n", turn.Role, b.Call.Name, b.Call.Arguments)
			case contract.BlockToolResult:
				fmt.Printf("%s: result %s\n", turn.Role, b.Result.Content)
			}
		}
	}
	fmt.Println(snap.Phase, "after", snap.RunUsage.ModelCalls, "model calls and", snap.RunUsage.ToolCalls, "tool call")
	// Output:
	// user: shout hello
	// assistant: call shout {"text":"hello"}
	// tool: result HELLO
	// assistant: The tool said HELLO.
	// settled after 2 model calls and 1 tool call
}

func ExampleAgent_Steer() {
	// The first reply waits a moment, so the steer arrives mid-run.
	model := scripted.New(
		scripted.Reply{Text: "Starting on plan A.", FirstDelay: 200 * time.Millisecond},
		scripted.Reply{Text: "Switching to plan B."},
	)
	agent, _ := conductor.CreateAgent(contract.AgentConfig{Model: "scripted"}, exampleDeps(model))
	defer agent.Close()

	done := make(chan contract.RunSnapshot)
	go func() {
		snap, _ := agent.Submit(context.Background(), conductor.Text("do plan A"))
		done <- snap
	}()
	for agent.Snapshot().Phase != contract.PhaseAwaitingModel {
		time.Sleep(time.Millisecond)
	}
	if err := agent.Steer(context.Background(), conductor.Text("actually, plan B")); err != nil {
		panic(err)
	}
	snap := <-done
	for _, turn := range snap.History.Turns() {
		fmt.Printf("%s%s: %s\n", turn.Role, mark(turn), turn.Text())
	}
	// Output:
	// user: do plan A
	// assistant: Starting on plan A.
	// user (steer): actually, plan B
	// assistant: Switching to plan B.
}

func mark(t contract.Turn) string {
	if t.Mark == "" {
		return ""
	}
	return " (" + string(t.Mark) + ")"
}

func ExampleAgent_Subscribe() {
	model := scripted.New(
		scripted.Reply{Calls: []scripted.Call{{ID: "c1", Name: "shout", Arguments: `{"text":"hi"}`}}},
		scripted.Reply{Text: "done"},
	)
	agent, _ := conductor.CreateAgent(contract.AgentConfig{Model: "scripted"}, exampleDeps(model, shout()))
	events := make(chan contract.RunEvent, 100)
	agent.Subscribe(func(ev contract.RunEvent) {
		if ev.Delta == 0 { // committed events only; deltas stream the text as it comes
			events <- ev
		}
	})
	if _, err := agent.Submit(context.Background(), conductor.Text("go")); err != nil {
		panic(err)
	}
	agent.Close() // delivers what is queued, then stops the subscriber
	close(events)
	for ev := range events {
		fmt.Println(ev.Seq, ev.Kind)
	}
	// Output:
	// 1 run_started
	// 2 turn_started
	// 3 turn_completed
	// 4 tool_call
	// 5 tool_started
	// 6 tool_result
	// 7 turn_started
	// 8 turn_completed
	// 9 run_settled
}

func ExampleAgent_Flush() {
	model := scripted.New(
		scripted.Reply{Calls: []scripted.Call{{ID: "c1", Name: "shout", Arguments: `{"text":"hi"}`}}},
		scripted.Reply{Text: "done"},
	)
	agent, err := conductor.CreateAgent(contract.AgentConfig{Model: "scripted"}, exampleDeps(model, shout()))
	if err != nil {
		panic(err)
	}
	defer agent.Close()
	var last contract.EventKind // written by the subscriber's goroutine
	agent.Subscribe(func(ev contract.RunEvent) {
		time.Sleep(time.Millisecond) // a subscriber slower than the run
		last = ev.Kind
	})
	if _, err := agent.Submit(context.Background(), conductor.Text("go")); err != nil {
		panic(err)
	}
	if err := agent.Flush(context.Background()); err != nil {
		panic(err)
	}
	fmt.Println(last) // read after Flush, which the subscriber's writes happen before
	// Output: run_settled
}

func ExampleAgent_Resume() {
	// A session stored by one agent is picked up by another, as after a
	// restart; the run it finds settled is returned as it is.
	st := store.NewMemory()
	deps := exampleDeps(scripted.New(scripted.Reply{Text: "first answer"}))
	deps.Env.Store = st
	first, _ := conductor.CreateAgent(contract.AgentConfig{Model: "scripted"}, deps)
	if _, err := first.Submit(context.Background(), conductor.Text("question")); err != nil {
		panic(err)
	}
	first.Close()

	deps = exampleDeps(scripted.New(scripted.Reply{Text: "second answer"}))
	deps.Env.Store = st
	second, _ := conductor.CreateAgent(contract.AgentConfig{Model: "scripted"}, deps)
	defer second.Close()
	snap, err := second.Resume(context.Background(), "example")
	if err != nil {
		panic(err)
	}
	fmt.Println(snap.Phase, snap.History.Len(), "turns")
	snap, _ = second.Submit(context.Background(), conductor.Text("follow-up question"))
	last, _ := snap.History.Last()
	fmt.Println(snap.Phase, snap.History.Len(), "turns, last:", last.Text())
	// Output:
	// settled 2 turns
	// settled 4 turns, last: second answer
}
