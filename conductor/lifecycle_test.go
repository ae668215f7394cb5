package conductor_test

import (
	"context"
	"testing"

	"go.uber.org/goleak"

	"github.com/batonrt/baton/conductor"
	"github.com/batonrt/baton/contract"
)

// TestNoGoroutineOutlivesARun: once Submit returns, the goroutines the
// run started (model stream, tool calls, approvals) are gone, even with
// the agent still open.
func TestNoGoroutineOutlivesARun(t *testing.T) {
	m := &fakeModel{replies: []replyFunc{
		callTools(call{"c1", "echo", `{"text":"a"}`}, call{"c2", "echo", `{"text":"b"}`}),
		say("done"),
	}}
	a := newAgent(t, contract.AgentConfig{}, testDeps(m, toolBox(t, echoTool(t))))
	idle := goleak.IgnoreCurrent() // the agent's own loop
	if _, err := a.Submit(ctxT(t), conductor.Text("go")); err != nil {
		t.Fatal(err)
	}
	goleak.VerifyNone(t, idle)
}

func TestEventsIteratesTheStream(t *testing.T) {
	m := &fakeModel{replies: []replyFunc{say("hello there")}}
	a := newAgent(t, contract.AgentConfig{}, testDeps(m, nil))
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	events := a.Events(ctx)
	if _, err := a.Submit(ctxT(t), conductor.Text("hi")); err != nil {
		t.Fatal(err)
	}
	// The run is over before the loop starts: nothing was lost meanwhile.
	var kinds []contract.EventKind
	for ev := range events {
		kinds = append(kinds, ev.Kind)
		if ev.Kind == contract.EvRunSettled {
			break
		}
	}
	if kinds[0] != contract.EvRunStarted || !contains(kinds, contract.EvTextDelta) {
		t.Fatalf("events %v", kinds)
	}
	// A tap whose context ends stops, and a closed agent ends the rest.
	cancel()
	for range a.Events(ctx) {
		t.Fatal("an ended context yielded an event")
	}
	late := a.Events(context.Background())
	_ = a.Close()
	for range late {
	}
}

func contains(kinds []contract.EventKind, k contract.EventKind) bool {
	for _, x := range kinds {
		if x == k {
			return true
		}
	}
	return false
}
