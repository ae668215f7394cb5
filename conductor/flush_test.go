package conductor_test

import (
	"sync/atomic"
	"testing"
	"time"

	"github.com/batonrt/baton/conductor"
	"github.com/batonrt/baton/contract"
)

// TestFlushAfterSubmit: Submit can return before a slow subscriber has
// seen the run's end; after Flush it has.
func TestFlushAfterSubmit(t *testing.T) {
	a := newAgent(t, contract.AgentConfig{}, testDeps(&fakeModel{replies: []replyFunc{say("hello")}}, nil))
	defer a.Close()
	var sawEnd atomic.Bool
	a.Subscribe(func(ev contract.RunEvent) {
		time.Sleep(5 * time.Millisecond)
		if ev.Kind == contract.EvRunSettled {
			sawEnd.Store(true)
		}
	})
	if _, err := a.Submit(ctxT(t), conductor.Text("hi")); err != nil {
		t.Fatal(err)
	}
	if err := a.Flush(ctxT(t)); err != nil {
		t.Fatal(err)
	}
	if !sawEnd.Load() {
		t.Error("after Flush the subscriber has not seen run_settled")
	}
}
