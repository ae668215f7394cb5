package wire_test

import (
	"context"
	"fmt"
	"os"
	"strings"

	"github.com/batonrt/baton/contract"
	"github.com/batonrt/baton/wire"
)

func ExampleAGUIProjector_Project() {
	p := wire.NewAGUIProjector("thread-1")
	events := []contract.RunEvent{
		{Seq: 1, SessionID: "thread-1", RunID: "run-1", Kind: contract.EvRunStarted},
		{Seq: 1, Delta: 1, Kind: contract.EvTextDelta, Text: "Hi"},
		{Seq: 2, Kind: contract.EvTurnCompleted, Turn: &contract.Turn{Role: contract.RoleAssistant, Blocks: []contract.Block{contract.TextBlock("Hi")}}},
		{Seq: 3, RunID: "run-1", Kind: contract.EvRunSettled},
	}
	for _, ev := range events {
		for _, a := range p.Project(ev) {
			fmt.Println(strings.TrimSpace(a.ID + " " + a.Type + " " + a.MessageID + a.Delta))
		}
	}
	// Output:
	// 1 RUN_STARTED
	// TEXT_MESSAGE_START m1
	// 1.1 TEXT_MESSAGE_CONTENT m1Hi
	// 2 TEXT_MESSAGE_END m1
	// STATE_SNAPSHOT
	// 3 RUN_FINISHED
}

func ExampleSSEWriter() {
	w := wire.NewSSEWriter(os.Stdout)
	_ = w.WriteAGUI(wire.AGUIEvent{Type: wire.AGUIRunStarted, ThreadID: "t", RunID: "r", ID: "1"})
	// Output:
	// id: 1
	// data: {"type":"RUN_STARTED","threadId":"t","runId":"r"}
}

func ExampleNDJSONWriter() {
	w := wire.NewNDJSONWriter(os.Stdout)
	_ = w.WriteEvent(contract.RunEvent{Seq: 1, SessionID: "t", Kind: contract.EvRunStarted})
	// Output: {"seq":1,"session_id":"t","at":0,"kind":"run_started"}
}

func ExampleDecodeRunAgentInput() {
	in, err := wire.DecodeRunAgentInput([]byte(`{"threadId":"t","runId":"r","messages":[
		{"id":"1","role":"user","content":"hi"},
		{"id":"2","role":"assistant","content":"hello"},
		{"id":"3","role":"user","content":[{"type":"text","text":"what now?"}]}]}`))
	if err != nil {
		fmt.Println(err)
		return
	}
	turns, err := in.NewTurns()
	fmt.Println(len(turns), turns[0].Text(), err)
	_, err = wire.DecodeRunAgentInput([]byte(`{"runId":"r"}`))
	fmt.Println(err)
	// Output:
	// 1 what now? <nil>
	// wire: bad run input: threadId is empty
}

func ExampleNewRunnerHandler() {
	h := wire.NewRunnerHandler(func(ctx context.Context, threadID string) (wire.Runner, error) {
		return nil, wire.ErrUnknownThread // a real factory returns wire.AgentRunner(agent)
	}, wire.HandlerOptions{})
	defer h.Close()
	fmt.Printf("%T\n", h)
	// Output: *wire.Handler
}
