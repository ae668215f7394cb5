package conductor_test

import (
	"context"
	"encoding/json"
	"strings"
	"testing"
	"unicode/utf8"

	"github.com/batonrt/baton/conductor"
	"github.com/batonrt/baton/contract"
)

// TestOutputCapHoldsForBytesThatAreNotUTF8: a tool's output that is not
// UTF-8 (a binary file, a program's raw bytes) reaches the model as
// valid text within Tools.OutputCap, marker included: the bytes made
// valid are what the cap counts, so a replacement character standing in
// for one byte does not take the outcome past the cap.
func TestOutputCapHoldsForBytesThatAreNotUTF8(t *testing.T) {
	const limit = 1000
	tests := []struct {
		name    string
		content string
		cut     bool
	}{
		{"one bad byte between letters", strings.Repeat("\xffa", 4*limit), true},
		// One run of bad bytes is one replacement character.
		{"bad bytes only", strings.Repeat("\xfe", 4*limit), false},
		{"a cut character at the cap", strings.Repeat("é", limit) + "\xc3", true},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			bin := rawTool(t, "bin", func(context.Context, json.RawMessage) (contract.ToolOutcome, error) {
				return contract.ToolOutcome{Content: tt.content}, nil
			})
			m := &fakeModel{replies: []replyFunc{callTools(call{"c1", "bin", `{}`}), say("done")}}
			deps := testDeps(m, toolBox(t, bin))
			deps.Tools.OutputCap = limit
			a := newAgent(t, contract.AgentConfig{}, deps)
			snap, err := a.Submit(ctxT(t), conductor.Text("go"))
			if err != nil {
				t.Fatal(err)
			}
			res := results(snap)
			if len(res) != 1 {
				t.Fatalf("results %+v", res)
			}
			got := res[0].Content
			if len(got) > limit || !utf8.ValidString(got) || strings.Contains(got, "[output truncated: ") != tt.cut {
				t.Errorf("result is %d bytes (cap %d), valid UTF-8 %v, want the cap kept, marked cut %v: %.80q", len(got), limit, utf8.ValidString(got), tt.cut, got)
			}
		})
	}
}
