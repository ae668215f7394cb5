package ledger_test

import (
	"bytes"
	"context"
	"fmt"
	"os"
	"runtime"

	"github.com/batonrt/baton/contract"
	"github.com/batonrt/baton/ledger"
)

func ExampleHub() {
	hub := ledger.NewHub(ledger.Options{Buffer: 16})
	transcript := ledger.NewTranscript()
	hub.Subscribe(transcript.Observe)
	hub.Publish(contract.RunEvent{Seq: 1, Kind: contract.EvTextDelta, Text: "Hello, "})
	hub.Publish(contract.RunEvent{Seq: 1, Delta: 1, Kind: contract.EvTextDelta, Text: "world"})
	hub.Close() // delivers what is queued
	fmt.Println(transcript.Text())
	// Output: Hello, world
}

func ExampleHub_Events() {
	hub := ledger.NewHub(ledger.Options{})
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	events := hub.Events(ctx)
	done := make(chan struct{})
	go func() {
		defer close(done)
		for ev := range events {
			fmt.Println(ev.Seq, ev.Kind)
			if ev.Kind == contract.EvRunSettled {
				return
			}
		}
	}()
	for hub.Len() == 0 {
		runtime.Gosched() // wait until the loop above has subscribed
	}
	hub.Publish(contract.RunEvent{Seq: 1, Kind: contract.EvRunStarted})
	hub.Publish(contract.RunEvent{Seq: 2, Kind: contract.EvRunSettled})
	<-done
	hub.Close()
	// Output:
	// 1 run_started
	// 2 run_settled
}

func ExampleUsageMeter() {
	meter := ledger.NewUsageMeter("small-model", ledger.PriceTable{
		"small-model": {Input: 1.0, Output: 4.0, Cached: 0.25},
	})
	meter.Observe(contract.RunEvent{Kind: contract.EvTurnCompleted, Usage: &contract.Usage{
		InputTokens: 200_000, CachedTokens: 100_000, OutputTokens: 50_000,
	}})
	cost, err := meter.Cost()
	if err != nil {
		fmt.Println(err)
		return
	}
	fmt.Printf("%.3f\n", cost.Total)
	// Output: 0.325
}

func ExampleToolLatency() {
	lat := ledger.NewToolLatency()
	lat.Observe(contract.RunEvent{Kind: contract.EvToolStarted, At: 0, Call: &contract.ToolCall{ID: "c1", Name: "grep"}})
	lat.Observe(contract.RunEvent{Kind: contract.EvToolResult, At: 1_500_000, Result: &contract.ToolResult{CallID: "c1", Name: "grep"}})
	for _, s := range lat.ByTool() {
		fmt.Println(s.Name, s.Calls, s.Max)
	}
	// Output: grep 1 1.5ms
}

func ExampleJSONLSink() {
	sink := ledger.JSONLSink(os.Stdout)
	sink(contract.RunEvent{Seq: 1, SessionID: "s", Kind: contract.EvRunStarted})
	// Output: {"seq":1,"session_id":"s","at":0,"kind":"run_started"}
}

func ExampleReadJSONL() {
	log := bytes.NewBufferString(`{"seq":1,"session_id":"s","at":0,"kind":"run_started"}` + "\n" +
		`{"seq":2,"session_id":"s","at":0,"kind":"run_settled"}` + "\n")
	for ev, err := range ledger.ReadJSONL(log) {
		if err != nil {
			fmt.Println(err)
			return
		}
		fmt.Println(ev.Seq, ev.Kind)
	}
	// Output:
	// 1 run_started
	// 2 run_settled
}
