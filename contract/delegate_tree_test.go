package contract_test

import (
	"fmt"
	"strings"
	"testing"

	"github.com/batonrt/baton/contract"
)

// meshConfig is a config whose n delegates each delegate to all of
// them, as one cyclic Go value, under the depth cap depth.
func meshConfig(n, depth int) contract.AgentConfig {
	ds := make([]contract.Delegate, n)
	for i := range ds {
		ds[i] = contract.Delegate{Name: fmt.Sprintf("a%d", i), Config: contract.AgentConfig{Model: "m", Delegates: ds}}
	}
	return contract.AgentConfig{Model: "m", Delegates: ds, MaxDelegationDepth: depth}
}

// TestValidateBoundsTheDelegateTree: a config whose delegates delegate
// to each other unrolls into a tree of fan-out^depth configs, which
// CreateAgent and every run's start record would hold; one that holds
// more than contract.MaxDelegateTree delegates is refused, naming the
// field, before anything expands it.
func TestValidateBoundsTheDelegateTree(t *testing.T) {
	cases := []struct {
		name         string
		cfg          contract.AgentConfig
		wantTooLarge bool
	}{
		{"pair at depth 11 (4094 delegates)", meshConfig(2, 11), false},
		{"three at depth 7 (3279 delegates)", meshConfig(3, 7), false},
		{"eight at the default depth", meshConfig(8, 0), false},
		{"pair at depth 12 (8190 delegates)", meshConfig(2, 12), true},
		{"three at depth 9", meshConfig(3, 9), true},
		{"three at the depth limit", meshConfig(3, contract.MaxDelegationDepthLimit), true},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			err := tc.cfg.Validate()
			re, _ := contract.AsRunError(err)
			tooLarge := false
			if re != nil {
				for _, f := range re.Fields {
					if f.Field == "Delegates" && strings.Contains(f.Reason, "MaxDelegationDepth") {
						tooLarge = true
					}
				}
			}
			if tooLarge != tc.wantTooLarge {
				t.Errorf("Validate() = %v; want refused as too large: %v", err, tc.wantTooLarge)
			}
			if !tc.wantTooLarge && err != nil {
				t.Errorf("Validate() = %v, want nil", err)
			}
		})
	}
}
