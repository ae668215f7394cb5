package cadence_test

import (
	"strings"
	"testing"
	"unicode/utf8"

	"github.com/batonrt/baton/cadence"
	"github.com/batonrt/baton/contract"
)

// TestLoopReminderKeepsUTF8Whole: the reminder quotes the repeated call
// cut to 80 bytes; the cut must not split a character, or the turn the
// model reads and the encoded snapshot carry invalid UTF-8.
func TestLoopReminderKeepsUTF8Whole(t *testing.T) {
	r := cadence.New(contract.AgentConfig{Model: "scripted", Tools: []contract.ToolDescriptor{{Name: "echo"}}, LoopGuard: contract.LoopGuard{Warn: 2, Critical: 5}})
	args := `{"t":"` + strings.Repeat("é", 60) + `"}`
	reply := func(id string) contract.ModelReplied {
		return contract.ModelReplied{Reply: contract.Turn{Blocks: []contract.Block{contract.CallBlock(contract.ToolCall{ID: id, Name: "echo", Arguments: args})}}, At: 2}
	}
	snap, effects := steps(t, r, cadence.InitialSnapshot("s1"),
		contract.Submitted{RunID: "r1", Input: []contract.Turn{contract.UserText("hi")}, At: 1},
		reply("c1"), contract.ToolSettled{CallID: "c1", At: 3},
		reply("c2"), contract.ToolSettled{CallID: "c2", At: 4},
	)
	var warned bool
	for _, e := range effects {
		if p, ok := e.(*contract.Publish); ok && p.Event.Kind == contract.EvLoopWarning {
			warned = true
			if !utf8.ValidString(p.Event.Text) {
				t.Errorf("loop warning text is not valid UTF-8: %q", p.Event.Text)
			}
		}
	}
	last, _ := snap.History.Last()
	if !warned || last.Mark != contract.MarkReminder {
		t.Fatalf("no reminder: %s", cadence.Summarize(effects))
	}
	if !utf8.ValidString(last.Text()) {
		t.Errorf("reminder turn is not valid UTF-8: %q", last.Text())
	}
}
