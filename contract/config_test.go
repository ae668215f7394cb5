package contract_test

import (
	"errors"
	"fmt"
	"math"
	"strings"
	"testing"
	"time"

	"github.com/batonrt/baton/contract"
	"github.com/google/go-cmp/cmp"
)

func TestValidateNamesEveryBadField(t *testing.T) {
	tool := func(name string) contract.ToolDescriptor { return contract.ToolDescriptor{Name: name} }
	research := contract.Delegate{Name: "research", Config: contract.AgentConfig{Model: "m"}}
	cases := []struct {
		name string
		cfg  contract.AgentConfig
		want []string // the bad fields, in order
	}{
		{"good", contract.AgentConfig{Model: "m", Tools: []contract.ToolDescriptor{tool("a"), tool("b-2_C")}}, nil},
		{"zero config", contract.AgentConfig{}, []string{"Model"}},
		{"max turns negative", contract.AgentConfig{Model: "m", MaxTurns: -1}, []string{"MaxTurns"}},
		{"max turns too big", contract.AgentConfig{Model: "m", MaxTurns: contract.MaxMaxTurns + 1}, []string{"MaxTurns"}},
		{"max turns at cap", contract.AgentConfig{Model: "m", MaxTurns: contract.MaxMaxTurns}, nil},
		{"output tokens", contract.AgentConfig{Model: "m", MaxOutputTokens: -5}, []string{"MaxOutputTokens"}},
		{"thinking", contract.AgentConfig{Model: "m", Thinking: "extreme"}, []string{"Thinking"}},
		{"concurrency", contract.AgentConfig{Model: "m", ToolConcurrency: -1}, []string{"ToolConcurrency"}},
		{"timeout", contract.AgentConfig{Model: "m", ToolTimeout: -time.Second}, []string{"ToolTimeout"}},
		{"loop warn", contract.AgentConfig{Model: "m", LoopGuard: contract.LoopGuard{Warn: -1}}, []string{"LoopGuard.Warn"}},
		{"loop critical not above warn", contract.AgentConfig{Model: "m", LoopGuard: contract.LoopGuard{Warn: 4, Critical: 4}}, []string{"LoopGuard.Critical"}},
		{"trigger ratio", contract.AgentConfig{Model: "m", Compaction: contract.CompactionPolicy{TriggerRatio: 1.5}}, []string{"Compaction.TriggerRatio"}},
		{"trigger ratio not a number", contract.AgentConfig{Model: "m", Compaction: contract.CompactionPolicy{TriggerRatio: math.NaN()}}, []string{"Compaction.TriggerRatio"}},
		{"loop warn above the default critical", contract.AgentConfig{Model: "m", LoopGuard: contract.LoopGuard{Warn: 6}}, nil},
		{"loop critical below the default warn", contract.AgentConfig{Model: "m", LoopGuard: contract.LoopGuard{Critical: 3}}, nil},
		{"loop critical of one", contract.AgentConfig{Model: "m", LoopGuard: contract.LoopGuard{Critical: 1}}, []string{"LoopGuard.Critical"}},
		{"tool choice names a delegate", contract.AgentConfig{Model: "m", Delegates: []contract.Delegate{research},
			Sampling: contract.Sampling{ToolChoice: "delegate_research"}}, nil},
		{"tool choice requires a tool and only delegates are offered", contract.AgentConfig{Model: "m", Delegates: []contract.Delegate{research},
			Sampling: contract.Sampling{ToolChoice: contract.ToolChoiceRequired}}, nil},
		{"tool choice names a delegate not offered at the depth cap", contract.AgentConfig{Model: "m", Delegates: []contract.Delegate{research},
			MaxDelegationDepth: 1, Depth: 1, Sampling: contract.Sampling{ToolChoice: "delegate_research"}}, []string{"Sampling.ToolChoice"}},
		{"tool choice requires a tool and the delegates are not offered", contract.AgentConfig{Model: "m", Delegates: []contract.Delegate{research},
			MaxDelegationDepth: 1, Depth: 1, Sampling: contract.Sampling{ToolChoice: contract.ToolChoiceRequired}}, []string{"Sampling.ToolChoice"}},
		{"keep recent", contract.AgentConfig{Model: "m", Compaction: contract.CompactionPolicy{KeepRecent: -1}}, []string{"Compaction.KeepRecent"}},
		{"context window", contract.AgentConfig{Model: "m", Compaction: contract.CompactionPolicy{ContextWindow: -1}}, []string{"Compaction.ContextWindow"}},
		{"tools", contract.AgentConfig{Model: "m", Tools: []contract.ToolDescriptor{
			tool(""), tool("has space"), tool("ok"), tool("ok"), {Name: "t", Timeout: -1}, tool(strings.Repeat("x", 65)),
		}}, []string{"Tools[0].Name", "Tools[1].Name", "Tools[3].Name", "Tools[4].Timeout", "Tools[5].Name"}},
		{"everything at once", contract.AgentConfig{
			MaxTurns: -1, MaxOutputTokens: -1, Thinking: "x", ToolConcurrency: -1, ToolTimeout: -1,
			LoopGuard:  contract.LoopGuard{Warn: -1, Critical: -2},
			Compaction: contract.CompactionPolicy{TriggerRatio: -1, KeepRecent: -1, ContextWindow: -1},
			Tools:      []contract.ToolDescriptor{tool("")},
		}, []string{"Model", "MaxTurns", "MaxOutputTokens", "Thinking", "ToolConcurrency", "ToolTimeout",
			"LoopGuard.Warn", "LoopGuard.Critical", "Compaction.TriggerRatio", "Compaction.KeepRecent",
			"Compaction.ContextWindow", "Tools[0].Name"}},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			err := tc.cfg.Validate()
			if tc.want == nil {
				if err != nil {
					t.Fatalf("Validate() = %v, want nil", err)
				}
				return
			}
			re, ok := contract.AsRunError(err)
			if !ok {
				t.Fatalf("Validate() = %v, want a *RunError", err)
			}
			if !errors.Is(err, contract.ErrConfig) {
				t.Errorf("Validate() does not match ErrConfig: %v", err)
			}
			var got []string
			for _, f := range re.Fields {
				got = append(got, f.Field)
				if f.Reason == "" {
					t.Errorf("field %s has no reason", f.Field)
				}
				if !strings.Contains(err.Error(), f.Field+" "+f.Reason) {
					t.Errorf("message %q does not name %s", err, f.Field)
				}
			}
			if diff := cmp.Diff(tc.want, got); diff != "" {
				t.Errorf("mismatch (-want +got):\n%s", diff)
			}
		})
	}
}

func TestWithDefaults(t *testing.T) {
	got := contract.AgentConfig{Model: "m", MaxTurns: 3}.WithDefaults()
	want := contract.AgentConfig{
		Model: "m", MaxTurns: 3, MaxOutputTokens: contract.DefaultMaxOutputTokens,
		ToolConcurrency: contract.DefaultToolConcurrency, ToolTimeout: contract.DefaultToolTimeout,
		LoopGuard: contract.LoopGuard{Warn: contract.DefaultLoopWarn, Critical: contract.DefaultLoopCritical},
		Compaction: contract.CompactionPolicy{TriggerRatio: contract.DefaultTriggerRatio,
			KeepRecent: contract.DefaultKeepRecent, ContextWindow: contract.DefaultContextWindow},
	}
	if diff := cmp.Diff(want, got); diff != "" {
		t.Errorf("mismatch (-want +got):\n%s", diff)
	}
}

func TestLoopGuardDefaultsFollowTheThresholdSet(t *testing.T) {
	cases := []struct {
		name      string
		set, want contract.LoopGuard
	}{
		{"neither", contract.LoopGuard{}, contract.LoopGuard{Warn: contract.DefaultLoopWarn, Critical: contract.DefaultLoopCritical}},
		{"warn below the default critical", contract.LoopGuard{Warn: 2}, contract.LoopGuard{Warn: 2, Critical: contract.DefaultLoopCritical}},
		{"warn just below the default critical", contract.LoopGuard{Warn: 4}, contract.LoopGuard{Warn: 4, Critical: contract.DefaultLoopCritical}},
		{"warn at the default critical", contract.LoopGuard{Warn: 5}, contract.LoopGuard{Warn: 5, Critical: 7}},
		{"warn above the default critical", contract.LoopGuard{Warn: 10}, contract.LoopGuard{Warn: 10, Critical: 12}},
		{"critical above the default warn", contract.LoopGuard{Critical: 9}, contract.LoopGuard{Warn: contract.DefaultLoopWarn, Critical: 9}},
		{"critical at the default warn", contract.LoopGuard{Critical: 3}, contract.LoopGuard{Warn: 2, Critical: 3}},
		{"critical of two", contract.LoopGuard{Critical: 2}, contract.LoopGuard{Warn: 1, Critical: 2}},
		{"critical of one has no warn below it", contract.LoopGuard{Critical: 1}, contract.LoopGuard{Warn: contract.DefaultLoopWarn, Critical: 1}},
		{"both", contract.LoopGuard{Warn: 6, Critical: 4}, contract.LoopGuard{Warn: 6, Critical: 4}},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			got := contract.AgentConfig{Model: "m", LoopGuard: tc.set}.WithDefaults().LoopGuard
			if diff := cmp.Diff(tc.want, got); diff != "" {
				t.Errorf("mismatch (-want +got):\n%s", diff)
			}
		})
	}
}

func ExampleAgentConfig_Validate() {
	err := contract.AgentConfig{MaxTurns: -1, Tools: []contract.ToolDescriptor{{Name: "no spaces"}}}.Validate()
	fmt.Println(err)
	fmt.Println(errors.Is(err, contract.ErrConfig))
	// Output:
	// baton: config: invalid agent config: Model is empty; MaxTurns must be in 1..100000, got -1; Tools[0].Name "no spaces" must match [A-Za-z0-9_-]{1,64}
	// true
}
