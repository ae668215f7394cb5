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
	got := make(chan []contract.EventKind, 1)
	ready := make(chan struct{})
	go func() {
		var kinds []contract.EventKind
		close(ready)
		for ev := range a.Events(ctx) {
			kinds = append(kinds, ev.Kind)
			if ev.Kind == contract.EvRunSettled {
				break
			}
		}
		got <- kinds
	}()
	<-ready
	// Events subscribes when iteration starts; wait until it has.
	for {
		if _, err := a.Submit(ctxT(t), conductor.Text("hi")); err != nil {
			t.Fatal(err)
		}
		select {
		case kinds := <-got:
			if kinds[len(kinds)-1] != contract.EvRunSettled || !contains(kinds, contract.EvTextDelta) {
				t.Fatalf("events %v", kinds)
			}
			return
		default:
			m.mu.Lock()
			m.replies = append(m.replies, say("again"))
			m.mu.Unlock()
		}
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
