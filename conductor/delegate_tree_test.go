package conductor_test

import (
	"fmt"
	"testing"

	"github.com/batonrt/baton/conductor"
	"github.com/batonrt/baton/contract"
)

// delegateMesh is a config whose n delegates each delegate to all of
// them, as one cyclic Go value, under the depth cap depth.
func delegateMesh(n, depth int) contract.AgentConfig {
	ds := make([]contract.Delegate, n)
	for i := range ds {
		ds[i] = contract.Delegate{Name: fmt.Sprintf("a%d", i), Config: contract.AgentConfig{Model: "gpt-4o", Delegates: ds}}
	}
	return contract.AgentConfig{Model: "gpt-4o", Delegates: ds, MaxDelegationDepth: depth}
}

// TestCreateAgentRefusesADelegateTreeTooLarge: delegates that delegate
// to each other unroll to fan-out^depth configs; CreateAgent refuses,
// naming the field, a config whose tree holds more than
// contract.MaxDelegateTree of them before it unrolls anything (three
// under the depth limit are 43 million, which exhausted memory).
func TestCreateAgentRefusesADelegateTreeTooLarge(t *testing.T) {
	for _, depth := range []int{9, contract.MaxDelegationDepthLimit} {
		t.Run(fmt.Sprint("depth ", depth), func(t *testing.T) {
			a, err := conductor.CreateAgent(delegateMesh(3, depth), testDeps(&fakeModel{}, nil))
			if err == nil {
				_ = a.Close()
				t.Fatal("CreateAgent took a config of three delegates delegating to each other", depth, "levels deep")
			}
			re, ok := contract.AsRunError(err)
			if !ok || re.Kind != contract.KindConfig || len(re.Fields) != 1 || re.Fields[0].Field != "Delegates" {
				t.Fatalf("CreateAgent: %v, want a config error naming Delegates alone", err)
			}
		})
	}
}
