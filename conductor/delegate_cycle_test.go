package conductor_test

import (
	"context"
	"slices"
	"strings"
	"sync"
	"testing"

	"github.com/batonrt/baton/conductor"
	"github.com/batonrt/baton/contract"
	"github.com/batonrt/baton/store"
	"github.com/batonrt/baton/turn"
	"github.com/google/go-cmp/cmp"
)

// selfDelegate is a config whose one delegate is itself: its Delegates
// share one backing array with the delegate's own.
func selfDelegate() contract.AgentConfig {
	ds := make([]contract.Delegate, 1)
	ds[0] = contract.Delegate{Name: "ping", Config: contract.AgentConfig{Model: "gpt-4o", System: "ping", Delegates: ds}}
	return contract.AgentConfig{Model: "gpt-4o", System: "ping", Delegates: ds}
}

// mutualDelegates is ping delegating to pong, which delegates back to
// ping, built as one cyclic value.
func mutualDelegates() contract.AgentConfig {
	ds := make([]contract.Delegate, 2)
	ds[0] = contract.Delegate{Name: "ping", Config: contract.AgentConfig{Model: "gpt-4o", System: "ping", Delegates: ds[1:2]}}
	ds[1] = contract.Delegate{Name: "pong", Config: contract.AgentConfig{Model: "gpt-4o", System: "pong", Delegates: ds[0:1]}}
	return contract.AgentConfig{Model: "gpt-4o", System: "ping", Delegates: ds[1:2]}
}

// nestedSelf is an agent that is its own delegate, written out five
// levels deep: no cycle, only a tree deeper than the cap.
func nestedSelf() contract.AgentConfig {
	self := contract.AgentConfig{Model: "gpt-4o", System: "ping"}
	for range 5 {
		inner := self
		self.Delegates = []contract.Delegate{{Name: "ping", Config: inner}}
	}
	return self
}

// alwaysDelegate delegates to the one delegate offered, if any, adding a
// "+" to the task; with none offered it answers.
func alwaysDelegate(deepest *int, mu *sync.Mutex) func(context.Context, contract.ModelRequest) replyFunc {
	return func(_ context.Context, req contract.ModelRequest) replyFunc {
		i := slices.IndexFunc(req.Tools, func(d contract.ToolDescriptor) bool { return d.Delegate != "" })
		if res := lastResults(req); res != nil || i < 0 {
			mu.Lock()
			*deepest = max(*deepest, strings.Count(lastUser(req), "+"))
			mu.Unlock()
			return say("leaf " + lastUser(req))
		}
		return callTools(call{"d", req.Tools[i].Name, `{"task":"` + lastUser(req) + `+"}`})
	}
}

// TestCyclicDelegatesStopAtTheDepthCap: a config whose delegates form a
// cycle (an agent its own delegate, or two delegating to each other, as
// one cyclic Go value), or a tree deeper than the cap, is taken by
// CreateAgent, and its runs delegate down to the depth cap and no
// further, where no delegate is offered.
func TestCyclicDelegatesStopAtTheDepthCap(t *testing.T) {
	cases := []struct {
		name string
		cfg  contract.AgentConfig
	}{
		{"self", selfDelegate()},
		{"mutual", mutualDelegates()},
		{"nested deeper than the cap", nestedSelf()},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			var mu sync.Mutex
			deepest := 0
			model := agentsModel{"ping": alwaysDelegate(&deepest, &mu), "pong": alwaysDelegate(&deepest, &mu)}
			st := store.NewMemory()
			deps := testDeps(model, toolBox(t))
			deps.Env.Store = st
			cfg := c.cfg
			cfg.MaxDelegationDepth = 2
			a := newAgent(t, cfg, deps)
			if _, err := a.Submit(ctxT(t), conductor.Text("go")); err != nil {
				t.Fatal(err)
			}
			if deepest != 2 {
				t.Errorf("deepest run was %d levels down, want the cap 2", deepest)
			}
			ids, _ := st.Sessions(ctxT(t))
			want := []string{"session_test", "session_test/2.0", "session_test/2.0/2.0"}
			if diff := cmp.Diff(want, ids); diff != "" {
				t.Errorf("sessions mismatch (-want +got):\n%s", diff)
			}
			checkDAG(t, st, "session_test", 2)
		})
	}
}

// TestProviderForADelegateBelowTheCapIsTaken: a provider given for a
// delegate declared only below the depth cap, which never runs, names a
// delegate of the config all the same, cyclic or not.
func TestProviderForADelegateBelowTheCapIsTaken(t *testing.T) {
	leaf := contract.AgentConfig{Model: "gpt-4o", System: "leaf"}
	mid := contract.AgentConfig{Model: "gpt-4o", System: "mid", Delegates: []contract.Delegate{{Name: "leaf", Config: leaf}}}
	nested := contract.AgentConfig{Model: "gpt-4o", System: "parent", MaxDelegationDepth: 1, Delegates: []contract.Delegate{{Name: "mid", Config: mid}}}
	cyclic := mutualDelegates()
	cyclic.MaxDelegationDepth = 1
	for name, c := range map[string]struct {
		cfg      contract.AgentConfig
		delegate string
	}{"nested": {nested, "leaf"}, "cyclic": {cyclic, "ping"}} {
		t.Run(name, func(t *testing.T) {
			deps := testDeps(&fakeModel{}, toolBox(t))
			deps.Model.Delegates = map[string]turn.Provider{c.delegate: &fakeModel{}}
			a, err := conductor.CreateAgent(c.cfg, deps)
			if err != nil {
				t.Fatal(err)
			}
			_ = a.Close()
		})
	}
}
