package storetest

import (
	"fmt"

	"github.com/batonrt/baton/contract"
)

// Script returns n records of a plausible session, steps 1..n: a submit,
// then rounds of a model reply calling a tool, the tool starting, and the
// tool settling, with a final reply. The same arguments give the same
// records, so two stores fed one script reach one head.
func Script(runID string, n int) []contract.Record {
	recs := make([]contract.Record, n)
	for i := range recs {
		step := uint64(i + 1)
		at := contract.Timestamp(1_700_000_000_000_000_000 + int64(i)*1_000_000)
		recs[i] = contract.Record{Step: step, Signal: scriptSignal(runID, i, at), Effects: fmt.Sprintf("step %d", step)}
	}
	return recs
}

// CallID returns the tool call id the script uses in the round of step i
// (0-based); ToolStarted and ToolSettled records carry it.
func CallID(runID string, i int) string { return fmt.Sprintf("%s-call-%d", runID, (i-1)/3) }

func scriptSignal(runID string, i int, at contract.Timestamp) contract.Signal {
	if i == 0 {
		return contract.Submitted{RunID: runID, Input: []contract.Turn{contract.UserText("count the files in " + runID)}, At: at}
	}
	call := contract.ToolCall{ID: CallID(runID, i), Name: "shell", Arguments: fmt.Sprintf(`{"cmd":"ls %d"}`, i)}
	switch (i - 1) % 3 {
	case 0:
		reply := contract.Turn{Role: contract.RoleAssistant, Blocks: []contract.Block{contract.TextBlock("looking"), contract.CallBlock(call)}}
		return contract.ModelReplied{Reply: reply, Usage: contract.Usage{InputTokens: int64(10 * i), OutputTokens: 7}, Stop: contract.StopToolUse, At: at}
	case 1:
		return contract.ToolStarted{CallID: call.ID, At: at}
	default:
		return contract.ToolSettled{CallID: call.ID, Outcome: contract.ToolOutcome{Content: fmt.Sprintf("%d files", i)}, At: at}
	}
}
