package agui_test

import (
	"fmt"
	"strings"

	"github.com/batonrt/baton/contract"
	"github.com/batonrt/baton/wire/agui"
)

func ExampleProjector_Project() {
	p := agui.NewProjector("thread-1")
	events := []contract.RunEvent{
		{Seq: 1, SessionID: "thread-1", RunID: "run-1", Kind: contract.EvRunStarted},
		{Seq: 1, Delta: 1, Kind: contract.EvTextDelta, Text: "Hi"},
		{Seq: 2, Kind: contract.EvTurnCompleted, Turn: &contract.Turn{Role: contract.RoleAssistant, Blocks: []contract.Block{contract.TextBlock("Hi there")}}},
		{Seq: 3, RunID: "run-1", Kind: contract.EvRunSettled},
	}
	for _, ev := range events {
		for _, a := range p.Project(ev) {
			fmt.Println(strings.TrimSpace(a.ID + " " + a.Type + " " + a.MessageID + " " + a.Delta))
		}
	}
	// The deltas carried "Hi"; the completed turn says "Hi there", so the
	// rest is sent before the message closes.
	// Output:
	// 1 RUN_STARTED
	// TEXT_MESSAGE_START m1
	// 1.1 TEXT_MESSAGE_CONTENT m1 Hi
	// TEXT_MESSAGE_CONTENT m1  there
	// 2 TEXT_MESSAGE_END m1
	// STATE_SNAPSHOT
	// 3 RUN_FINISHED
}

func ExampleDecodeInput() {
	in, err := agui.DecodeInput([]byte(`{"threadId":"t","runId":"r","messages":[
		{"id":"1","role":"user","content":"hi"},
		{"id":"2","role":"assistant","content":"hello"},
		{"id":"3","role":"user","content":[{"type":"text","text":"what now?"}]}]}`), true)
	fmt.Println(in.ThreadID, len(in.Turns), in.Turns[0].Text(), err)
	_, err = agui.DecodeInput([]byte(`{"runId":"r"}`), true)
	fmt.Println(err)
	// Output:
	// t 1 what now? <nil>
	// agui: bad run input: threadId is empty
}
