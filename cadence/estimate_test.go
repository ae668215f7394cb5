package cadence_test

import (
	"bytes"
	"strings"
	"testing"

	"github.com/batonrt/baton/cadence"
	"github.com/batonrt/baton/compactor"
	"github.com/batonrt/baton/contract"
)

// estimateSession is a gpt-4o run whose input, reply and tool result carry
// their token estimates, as the conductor's workers count them, or carry
// none, as signals recorded before estimates were carried.
func estimateSession(carried bool) []contract.Signal {
	const model = "gpt-4o"
	reply := contract.Turn{Role: contract.RoleAssistant, Blocks: []contract.Block{
		contract.TextBlock("Let me look that up."),
		contract.CallBlock(contract.ToolCall{ID: "c1", Name: "echo", Arguments: `{"text":"fjords"}`}),
	}}
	output := strings.Repeat("Fjords are long, narrow inlets with steep sides. ", 40)
	settle := contract.ToolSettled{CallID: "c1", Outcome: contract.ToolOutcome{Content: output}, At: 3}
	input := contract.UserText("tell me about fjords")
	if carried {
		input.Tokens = compactor.Estimate(model, input)
		reply.Tokens = compactor.Estimate(model, reply)
		settle.Tokens = compactor.BlockEstimate(model, contract.ResultBlock(contract.ToolResult{Content: output}))
	}
	return []contract.Signal{
		contract.Submitted{RunID: "r1", Input: []contract.Turn{input}, At: 1},
		contract.ModelReplied{Reply: reply, Stop: contract.StopToolUse, At: 2},
		settle,
	}
}

// Carried estimates give the history the same counts the reducer would
// have made itself, so a session folds to the same snapshot whether its
// signals carry them or not; and a carried count is what history takes.
func TestCarriedEstimatesFoldLikeCountedOnes(t *testing.T) {
	rules := cadence.New(contract.AgentConfig{Model: "gpt-4o", Tools: []contract.ToolDescriptor{{Name: "echo"}}, Revision: contract.CurrentRevision})
	carried, _ := recordSession(t, rules, estimateSession(true)...)
	counted, _ := recordSession(t, rules, estimateSession(false)...)
	a, _ := contract.EncodeSnapshot(carried)
	b, _ := contract.EncodeSnapshot(counted)
	if !bytes.Equal(a, b) {
		t.Fatalf("snapshots differ:\ncarried %s\ncounted %s", a, b)
	}
	sigs := estimateSession(true)
	reply := sigs[1].(contract.ModelReplied)
	reply.Reply.Tokens = 12345
	sigs[1] = reply
	sub := sigs[0].(contract.Submitted)
	sub.Input = []contract.Turn{sub.Input[0]}
	sub.Input[0].Tokens = 777
	sigs[0] = sub
	s, _ := recordSession(t, rules, sigs...)
	if got := s.History.Turns()[0].Tokens; got != 777 {
		t.Errorf("history took %d tokens for the input, its signal carried 777", got)
	}
	if got := s.History.Turns()[1].Tokens; got != 12345 {
		t.Errorf("history took %d tokens for the reply, its signal carried 12345", got)
	}
}
