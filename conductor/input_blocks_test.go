package conductor_test

import (
	"errors"
	"strings"
	"testing"

	"github.com/batonrt/baton/conductor"
	"github.com/batonrt/baton/contract"
)

// TestInputTheRuntimeAloneWrites: a host's input turns carry what a
// person or a client says, text and images. A tool call or result in
// them, a mark the runtime gives its own turns, or the flag of a failed
// run's turns is refused with a config error before anything is stored:
// taken in, a tool call in a user turn is answered by nothing and keeps
// every later compaction from finding a cut.
func TestInputTheRuntimeAloneWrites(t *testing.T) {
	call := contract.CallBlock(contract.ToolCall{ID: "c1", Name: "echo", Arguments: `{}`})
	result := contract.ResultBlock(contract.ToolResult{CallID: "c1", Name: "echo", Content: "x"})
	excluded := contract.UserText("from a failed run")
	excluded.Excluded = true
	marked := contract.UserText("a summary")
	marked.Mark = contract.MarkSummary
	cases := []struct {
		name string
		turn contract.Turn
		says string
	}{
		{"a tool call", contract.Turn{Role: contract.RoleUser, Blocks: []contract.Block{contract.TextBlock("run this"), call}}, "tool_call"},
		{"a tool result", contract.Turn{Role: contract.RoleUser, Blocks: []contract.Block{result}}, "tool_result"},
		{"a runtime mark", marked, "summary"},
		{"a failed run's flag", excluded, "excluded"},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			m := &fakeModel{replies: []replyFunc{say("ok")}}
			a := newAgent(t, contract.AgentConfig{}, testDeps(m, toolBox(t, echoTool(t))))
			snap, err := a.Submit(ctxT(t), conductor.Input{Turns: []contract.Turn{c.turn}})
			var re *contract.RunError
			if !errors.As(err, &re) || re.Kind != contract.KindConfig || !strings.Contains(err.Error(), c.says) {
				t.Fatalf("submit: err %v, want a config error naming %q", err, c.says)
			}
			if snap.Steps != 0 || len(m.Requests()) != 0 {
				t.Errorf("refused input stored %d steps and made %d model calls", snap.Steps, len(m.Requests()))
			}
			if _, err := a.Submit(ctxT(t), conductor.Text("hello")); err != nil {
				t.Errorf("a good submit after the refused one: %v", err)
			}
		})
	}
}
