package conductor_test

import (
	"strings"
	"testing"

	"github.com/batonrt/baton/conductor"
	"github.com/batonrt/baton/contract"
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
