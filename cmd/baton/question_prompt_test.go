package main

import (
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/batonrt/baton/conductor"
	"github.com/batonrt/baton/contract"
)

// TestQuestionPrompt: a question from a delegate's child says which
// delegate call asks, its path escaped as every terminal line is; the
// agent's own questions show as before.
func TestQuestionPrompt(t *testing.T) {
	q := contract.Question{Text: "Which city?", Choices: []string{"Oslo", "Bergen"}}
	tests := []struct {
		name    string
		subflow []string
		want    string
	}{
		{"own run", nil, "? Which city?\n  1) Oslo\n  2) Bergen\nanswer> "},
		{"delegate's child", []string{"c1"}, "? (asked in delegate call c1) Which city?\n  1) Oslo\n  2) Bergen\nanswer> "},
		{"two deep", []string{"c1", "c7"}, "? (asked in delegate call c1/c7) Which city?\n  1) Oslo\n  2) Bergen\nanswer> "},
		{"escaped", []string{"c1\x1b[2J"}, "? (asked in delegate call c1\\x1b[2J) Which city?\n  1) Oslo\n  2) Bergen\nanswer> "},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got := questionPrompt(conductor.QuestionRequest{Call: contract.ToolCall{ID: "q1", Name: "ask_human"}, Question: q, Subflow: tt.subflow})
			if diff := cmp.Diff(tt.want, got); diff != "" {
				t.Errorf("prompt mismatch (-want +got):\n%s", diff)
			}
		})
	}
}
