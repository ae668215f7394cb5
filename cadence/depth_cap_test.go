package cadence_test

import (
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/batonrt/baton/cadence"
	"github.com/batonrt/baton/contract"
)

// TestDelegateAtTheDepthCapSaysWhy: an agent at the delegation depth
// limit offers no delegates; a call to one of them is answered saying why
// and what it has instead, from revision 14, rather than as an unknown
// tool, which sent models looking for the delegate under other names.
func TestDelegateAtTheDepthCapSaysWhy(t *testing.T) {
	cases := []struct {
		revision int
		want     string
	}{
		{13, `error: unknown tool "delegate_helper"; available tools: echo`},
		{14, `error: "delegate_helper" cannot be called here: this agent runs at the delegation depth limit (2) and may not delegate further; do the task with the tools you have: echo`},
	}
	for _, c := range cases {
		cfg := contract.AgentConfig{Model: "scripted", Tools: []contract.ToolDescriptor{{Name: "echo"}}, Revision: c.revision,
			Delegates: []contract.Delegate{{Name: "helper", Config: contract.AgentConfig{Model: "scripted"}}}, Depth: 2, MaxDelegationDepth: 2}
		call := contract.Turn{Role: contract.RoleAssistant, Blocks: []contract.Block{contract.CallBlock(contract.ToolCall{ID: "c1", Name: "delegate_helper", Arguments: `{"task":"x"}`})}}
		s, _ := stepAll(t, cadence.New(cfg),
			contract.Submitted{RunID: "r", Input: []contract.Turn{contract.UserText("go")}, At: 1},
			contract.ModelReplied{Reply: call, At: 2},
		)
		var got string
		if results := s.History.Turns()[2].Results(); len(results) == 1 {
			got = results[0].Content
		}
		if diff := cmp.Diff(c.want, got); diff != "" {
			t.Errorf("revision %d: the call's result (-want +got):\n%s", c.revision, diff)
		}
	}
}
