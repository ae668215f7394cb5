package aisdk_test

import (
	"encoding/json"
	"fmt"

	"github.com/batonrt/baton/contract"
	"github.com/batonrt/baton/wire/aisdk"
)

func ExampleProjector_Project() {
	p := aisdk.NewProjector("chat-1")
	events := []contract.RunEvent{
		{Seq: 1, SessionID: "chat-1", RunID: "run-1", Kind: contract.EvRunStarted},
		{Seq: 1, Delta: 1, Kind: contract.EvTextDelta, Text: "Hi"},
		{Seq: 2, Kind: contract.EvTurnCompleted, Turn: &contract.Turn{Role: contract.RoleAssistant, Blocks: []contract.Block{contract.TextBlock("Hi")}}},
		{Seq: 3, RunID: "run-1", Kind: contract.EvRunSettled},
	}
	for _, ev := range events {
		for _, c := range p.Project(ev) {
			b, _ := json.Marshal(c)
			fmt.Printf("data: %s\n", b)
		}
	}
	fmt.Println("data: [DONE]")
	// Output:
	// data: {"type":"start","messageId":"run-1","messageMetadata":{"sessionId":"chat-1","runId":"run-1"}}
	// data: {"type":"start-step"}
	// data: {"type":"text-start","id":"text-1"}
	// data: {"type":"text-delta","id":"text-1","delta":"Hi"}
	// data: {"type":"text-end","id":"text-1"}
	// data: {"type":"finish-step"}
	// data: {"type":"finish","messageMetadata":{"sessionId":"chat-1","runId":"run-1","phase":"settled"},"finishReason":"stop"}
	// data: [DONE]
}

func ExampleDecodeInput() {
	in, err := aisdk.DecodeInput([]byte(`{"id":"chat-1","trigger":"submit-message","messages":[
		{"id":"1","role":"user","parts":[{"type":"text","text":"hi"}]},
		{"id":"2","role":"assistant","parts":[{"type":"text","text":"hello"}]},
		{"id":"3","role":"user","parts":[{"type":"file","url":"x"},{"type":"text","text":"what now?"}]}]}`))
	fmt.Println(in.ChatID, len(in.Turns), in.Turns[0].Text(), err)
	_, err = aisdk.DecodeInput([]byte(`{"messages":[]}`))
	fmt.Println(err)
	// Output:
	// chat-1 1 what now? <nil>
	// aisdk: bad chat request: id is empty
}
