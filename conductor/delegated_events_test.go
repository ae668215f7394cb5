package conductor_test

import (
	"slices"
	"strings"
	"sync"
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/batonrt/baton/conductor"
	"github.com/batonrt/baton/contract"
	"github.com/batonrt/baton/store"
)

// committed reports whether ev is one the store keeps: not a delta nor
// a notice of the live stream only.
func committed(ev contract.RunEvent) bool {
	switch ev.Kind {
	case contract.EvModelRetry, contract.EvWaiting, contract.EvRunDetached, contract.EvLag, contract.EvSignalRejected:
		return false
	}
	return ev.Delta == 0
}

// TestDelegatedEventsAreTheLiveOnes: what DelegatedEvents re-projects
// of each delegated run, at every depth, is what the live stream carried
// of it, its deltas and notices aside, event for event; also for a
// session whose id is too long for its delegates' to extend, which name
// them by its end (contract.ChildSession).
func TestDelegatedEventsAreTheLiveOnes(t *testing.T) {
	for name, session := range map[string]string{
		"short id":          "session_test",
		"id cut at depth 2": strings.Repeat("s", contract.MaxSessionID-len("/2.0")),
		"id cut at depth 1": strings.Repeat("s", contract.MaxSessionID-2),
	} {
		t.Run(name, func(t *testing.T) { delegatedEventsAreTheLiveOnes(t, session) })
	}
}

func delegatedEventsAreTheLiveOnes(t *testing.T, session string) {
	cfg, model := twoLevels()
	deps := testDeps(model, toolBox(t))
	deps.Env.Store = store.NewMemory()
	deps.Env.SessionID = session
	a := newAgent(t, cfg, deps)
	var mu sync.Mutex
	var live []contract.RunEvent
	stop := a.Subscribe(func(ev contract.RunEvent) {
		mu.Lock()
		live = append(live, ev)
		mu.Unlock()
	})
	if _, err := a.Submit(ctxT(t), conductor.Text("go")); err != nil {
		t.Fatal(err)
	}
	if err := a.Flush(ctxT(t)); err != nil {
		t.Fatal(err)
	}
	stop()
	mu.Lock()
	defer mu.Unlock()
	runs := 0
	for _, started := range live {
		if started.Kind != contract.EvSubflowStarted {
			continue
		}
		runs++
		path := append(slices.Clone(started.Subflow), started.Call.ID)
		var want []contract.RunEvent
		for _, ev := range live {
			if slices.Equal(ev.Subflow, path) && committed(ev) {
				ev.Subflow = nil
				want = append(want, ev)
			}
		}
		got, err := a.DelegatedEvents(ctxT(t), started.Text)
		if err != nil {
			t.Fatal(err)
		}
		if len(want) == 0 {
			t.Fatalf("the live stream carried nothing of %s", strings.Join(path, "/"))
		}
		if diff := cmp.Diff(want, got); diff != "" {
			t.Errorf("%s (session %s) mismatch (-live +re-projected):\n%s", strings.Join(path, "/"), started.Text, diff)
		}
	}
	if runs != 4 {
		t.Errorf("%d delegated runs, want 4", runs)
	}
	if _, err := a.DelegatedEvents(ctxT(t), "elsewhere/2.0"); err == nil {
		t.Error("the events of another session's delegated run were read")
	}
}
