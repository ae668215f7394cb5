package conductor_test

import (
	"errors"
	"strconv"
	"strings"
	"testing"

	"github.com/batonrt/baton/conductor"
	"github.com/batonrt/baton/contract"
	"github.com/batonrt/baton/store"
)

// TestCreateAgentRefusesASessionIDTheStoreCannotHold: bad configuration
// is returned by CreateAgent, never found at the first Submit.
func TestCreateAgentRefusesASessionIDTheStoreCannotHold(t *testing.T) {
	for _, id := range []string{strings.Repeat("s", 200), "bad\xffid"} {
		deps := testDeps(&fakeModel{}, nil)
		deps.Env.SessionID = id
		a, err := conductor.CreateAgent(contract.AgentConfig{Model: "gpt-4o"}, deps)
		if err == nil {
			_, serr := a.Submit(ctxT(t), conductor.Text("go"))
			_ = a.Close()
			t.Fatalf("session id %q accepted; Submit then said: %v", id, serr)
		}
		re, ok := contract.AsRunError(err)
		if !ok || re.Kind != contract.KindConfig || len(re.Fields) != 1 || re.Fields[0].Field != "Deps.Env.SessionID" {
			t.Fatalf("session id %q: %v", id, err)
		}
	}
}

// TestCreateAgentRefusesAnOutputCapOverTheNodeLimit: a tool output the
// cap lets through but the store cannot hold in one node would fail a
// run midway; CreateAgent says so first, naming both numbers.
func TestCreateAgentRefusesAnOutputCapOverTheNodeLimit(t *testing.T) {
	for _, c := range []struct {
		cap int
		ok  bool
	}{{0, true}, {store.MaxNode, true}, {store.MaxNode + 1, false}, {2 * store.MaxNode, false}} {
		deps := testDeps(&fakeModel{}, nil)
		deps.Tools.OutputCap = c.cap
		a, err := conductor.CreateAgent(contract.AgentConfig{Model: "gpt-4o"}, deps)
		if c.ok {
			if err != nil {
				t.Errorf("OutputCap %d: %v, want it taken", c.cap, err)
				continue
			}
			_ = a.Close()
			continue
		}
		if err == nil {
			_ = a.Close()
			t.Errorf("OutputCap %d taken, want a config error: it is over store.MaxNode", c.cap)
			continue
		}
		re, _ := contract.AsRunError(err)
		if !errors.Is(err, contract.ErrConfig) || re == nil || len(re.Fields) != 1 || re.Fields[0].Field != "Deps.Tools.OutputCap" ||
			!strings.Contains(err.Error(), strconv.Itoa(c.cap)) || !strings.Contains(err.Error(), strconv.Itoa(store.MaxNode)) {
			t.Errorf("OutputCap %d: %v, want a config error on Deps.Tools.OutputCap naming %d and %d", c.cap, err, c.cap, store.MaxNode)
		}
	}
}
