package ledger_test

import (
	"bytes"
	"context"
	"fmt"
	"os"
	"runtime"
	"strings"

	"github.com/batonrt/baton/contract"
	"github.com/batonrt/baton/ledger"
)

func ExampleHub() {
	hub := ledger.NewHub(ledger.Options{Buffer: 16})
	var text strings.Builder // only the subscriber's goroutine writes it
	hub.Subscribe(func(ev contract.RunEvent) {
		if ev.Kind == contract.EvTextDelta {
			text.WriteString(ev.Text)
		}
	})
	hub.Publish(&contract.RunEvent{Seq: 1, Kind: contract.EvTextDelta, Text: "Hello, "})
	hub.Publish(&contract.RunEvent{Seq: 1, Delta: 1, Kind: contract.EvTextDelta, Text: "world"})
	hub.Close() // delivers what is queued and waits for the subscriber
	fmt.Println(text.String())
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
	hub.Publish(&contract.RunEvent{Seq: 1, Kind: contract.EvRunStarted})
	hub.Publish(&contract.RunEvent{Seq: 2, Kind: contract.EvRunSettled})
	<-done
	hub.Close()
	// Output:
	// 1 run_started
	// 2 run_settled
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
