package conductor_test

import (
	"testing"
	"time"

	"github.com/batonrt/baton/conductor"
	"github.com/batonrt/baton/contract"
)

// The sequence Events returns is single-use: ranging it again, after a
// loop that stopped, yields nothing and returns at once, rather than
// waiting for events that no longer reach it until the agent closes.
func TestEventsRangedAgainReturnsAtOnce(t *testing.T) {
	ctx := ctxT(t)
	a := newAgent(t, contract.AgentConfig{}, testDeps(&fakeModel{replies: []replyFunc{say("one"), say("two")}}, nil))
	events := a.Events(ctx)
	if _, err := a.Submit(ctx, conductor.Text("first")); err != nil {
		t.Fatal(err)
	}
	for ev := range events {
		if ev.Kind == contract.EvRunSettled {
			break
		}
	}
	if _, err := a.Submit(ctx, conductor.Text("second")); err != nil {
		t.Fatal(err)
	}
	done := make(chan int)
	go func() {
		n := 0
		for range events {
			n++
		}
		done <- n
	}()
	select {
	case n := <-done:
		if n != 0 {
			t.Errorf("the second range yielded %d events, want none", n)
		}
	case <-time.After(5 * time.Second):
		t.Fatal("ranging the events a second time still waits after 5s")
	}
}
