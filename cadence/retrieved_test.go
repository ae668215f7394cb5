package cadence_test

import (
	"errors"
	"testing"

	"github.com/batonrt/baton/cadence"
	"github.com/batonrt/baton/contract"
)

func TestSubmitRejectsRetrievedTurnsThatBreakHistory(t *testing.T) {
	r := cadence.New(contract.AgentConfig{Model: "scripted"})
	s := cadence.InitialSnapshot("s")
	for name, retrieved := range map[string]contract.Turn{
		"empty":  {Role: contract.RoleUser},
		"call":   {Role: contract.RoleUser, Blocks: []contract.Block{contract.CallBlock(contract.ToolCall{ID: "x", Name: "t"})}},
		"result": {Role: contract.RoleUser, Blocks: []contract.Block{contract.ResultBlock(contract.ToolResult{CallID: "x"})}},
	} {
		next, effects, err := r.Step(s, contract.Submitted{RunID: "r", Input: []contract.Turn{contract.UserText("hi")}, Retrieved: []contract.Turn{retrieved}})
		if !errors.Is(err, cadence.ErrRejected) || len(effects) != 0 || next.Phase != contract.PhaseIdle {
			t.Errorf("%s: retrieved turn accepted: %s", name, cadence.Summarize(effects))
		}
	}
}
