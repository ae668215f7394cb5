package conductor_test

import (
	"context"
	"fmt"
	"runtime"
	"strings"
	"testing"
	"time"

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

// A loop over Events that stops early lets go of its tap at once, even
// when the tap is full and waiting for the reader that is gone: nothing
// is left waiting for the agent to close.
func TestEventsLoopThatStopsLeavesNoGoroutine(t *testing.T) {
	var calls []call
	for i := range 50 {
		calls = append(calls, call{fmt.Sprintf("c%d", i), "echo", fmt.Sprintf(`{"text":"%d"}`, i)})
	}
	m := &fakeModel{replies: []replyFunc{callTools(calls...), say("done")}}
	a := newAgent(t, contract.AgentConfig{}, testDeps(m, toolBox(t, echoTool(t))))
	idle := goleak.IgnoreCurrent()
	events := a.Events(context.Background())
	if _, err := a.Submit(ctxT(t), conductor.Text("go")); err != nil {
		t.Fatal(err)
	}
	// More events came than the tap holds. The loop takes one and, like a
	// reader busy with it, stops only once the tap is full again.
	for range events {
		waitForBlockedTap(t)
		break
	}
	goleak.VerifyNone(t, idle)
}

// waitForBlockedTap waits until the Events tap is blocked handing an
// event to its reader. The reader's receive made it runnable, so a tap
// seen blocked is blocked on the next event.
func waitForBlockedTap(t *testing.T) {
	t.Helper()
	buf := make([]byte, 1<<20)
	for deadline := time.Now().Add(10 * time.Second); time.Now().Before(deadline); runtime.Gosched() {
		n := runtime.Stack(buf, true)
		if n == len(buf) {
			buf = make([]byte, 2*len(buf))
			continue
		}
		for _, g := range strings.Split(string(buf[:n]), "\n\n") {
			if strings.Contains(g, "[select") && strings.Contains(g, "conductor.(*Agent).Events.func") && strings.Contains(g, "ledger.(*Hub).deliver") {
				return
			}
		}
	}
	t.Fatal("the Events tap never blocked on its reader")
}
