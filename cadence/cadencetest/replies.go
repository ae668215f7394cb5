package cadencetest

import (
	"fmt"

	"github.com/batonrt/baton/contract"
	"pgregory.net/rapid"
)

// arguments are few on purpose, so equal calls repeat and the loop guard
// has something to find; the last two are malformed.
var arguments = []string{`{}`, `{"x":1}`, `{"x":2}`, ``, `{"x":`, `[1]`}

// approvalKeys are the few approval keys replies record for ApprovalTool
// calls, so keys repeat and the allowlist matters.
var approvalKeys = []string{"ls", "rm", "curl"}

// questions are QuestionTool's arguments; the last one asks nothing.
var questions = []string{`{"question":"which one?"}`, `{"question":"pick","choices":["a","b"]}`, `{"question":""}`}

// Call draws a tool call to one of names or to UnknownTool, with id as
// its id.
func Call(id string, names []string) *rapid.Generator[contract.ToolCall] {
	return rapid.Custom(func(t *rapid.T) contract.ToolCall {
		name := UnknownTool
		if len(names) > 0 && rapid.IntRange(0, 9).Draw(t, "known") > 0 {
			name = rapid.SampledFrom(names).Draw(t, "tool")
		}
		args := arguments[rapid.IntRange(0, 2).Draw(t, "args")]
		if name == QuestionTool {
			args = rapid.SampledFrom(questions).Draw(t, "question")
		}
		if name == contract.DelegatePrefix+DelegateName {
			args = rapid.SampledFrom([]string{`{"task":"look it up"}`, `{"task":""}`}).Draw(t, "task")
		}
		if rapid.IntRange(0, 9).Draw(t, "malformed") == 0 {
			args = rapid.SampledFrom(arguments).Draw(t, "any_args")
		}
		return contract.ToolCall{ID: id, Name: name, Arguments: args}
	})
}

// Reply draws a scripted model reply: text only, or up to three tool
// calls to the tools (sometimes an unknown one, sometimes malformed
// arguments, sometimes an empty or repeated id), with usage; most calls
// to ApprovalTool carry recorded approval keys.
func Reply(tools []contract.ToolDescriptor, at contract.Timestamp) *rapid.Generator[contract.Signal] {
	names := make([]string, len(tools))
	for i, d := range tools {
		names[i] = d.Name
	}
	return rapid.Custom(func(t *rapid.T) contract.Signal {
		var blocks []contract.Block
		if rapid.Bool().Draw(t, "has_text") {
			blocks = append(blocks, contract.TextBlock(rapid.SampledFrom([]string{"ok", "let me look", "done"}).Draw(t, "text")))
		}
		n := rapid.IntRange(0, 3).Draw(t, "calls")
		var keys []contract.CallKeys
		for i := range n {
			id := fmt.Sprintf("call-%d-%d", at, i)
			if rapid.IntRange(0, 14).Draw(t, "odd_id") == 0 {
				id = rapid.SampledFrom([]string{"", "dup"}).Draw(t, "id")
			}
			call := Call(id, names).Draw(t, "call")
			blocks = append(blocks, contract.CallBlock(call))
			if call.Name == ApprovalTool && rapid.IntRange(0, 3).Draw(t, "keyed") > 0 {
				keys = append(keys, contract.CallKeys{Call: i, Keys: rapid.SliceOfNDistinct(rapid.SampledFrom(approvalKeys), 1, 2, rapid.ID).Draw(t, "keys")})
			}
		}
		stop := contract.StopEndTurn
		if n > 0 {
			stop = contract.StopToolUse
		}
		return contract.ModelReplied{
			Reply: contract.Turn{Role: contract.RoleAssistant, Blocks: blocks},
			Usage: contract.Usage{
				InputTokens:  int64(rapid.IntRange(0, 500).Draw(t, "input_tokens")),
				OutputTokens: int64(rapid.IntRange(0, 100).Draw(t, "output_tokens")),
			},
			Stop: stop,
			Keys: keys,
			At:   at,
		}
	})
}

// Outcome draws what a tool produced: mostly success, sometimes an error
// or a truncated output.
func Outcome() *rapid.Generator[contract.ToolOutcome] {
	return rapid.Custom(func(t *rapid.T) contract.ToolOutcome {
		return contract.ToolOutcome{
			Content:   rapid.SampledFrom([]string{"ok", "42", "a much longer tool output that costs tokens to keep around in history"}).Draw(t, "content"),
			IsError:   rapid.IntRange(0, 4).Draw(t, "is_error") == 0,
			Truncated: rapid.IntRange(0, 9).Draw(t, "truncated") == 0,
		}
	})
}
