package compactor_test

import (
	"testing"

	"github.com/batonrt/baton/compactor"
	"github.com/batonrt/baton/contract"
	"github.com/google/go-cmp/cmp"
)

func TestShouldCompact(t *testing.T) {
	p := contract.CompactionPolicy{TriggerRatio: 0.5, ContextWindow: 1000, KeepRecent: 4}
	tests := []struct {
		name   string
		tokens int
		p      contract.CompactionPolicy
		want   bool
	}{
		{"below threshold", 499, p, false},
		{"at threshold", 500, p, true},
		{"above threshold", 900, p, true},
		{"disabled", 5000, contract.CompactionPolicy{Disabled: true, TriggerRatio: 0.5, ContextWindow: 1000}, false},
		{"zero policy uses defaults, below", 102_399, contract.CompactionPolicy{}, false},
		{"zero policy uses defaults, at", 102_400, contract.CompactionPolicy{}, true},
		{"ratio one", 1000, contract.CompactionPolicy{TriggerRatio: 1, ContextWindow: 1000}, true},
		{"negative window never triggers", 1 << 30, contract.CompactionPolicy{TriggerRatio: 0.5, ContextWindow: -1}, false},
		{"negative ratio never triggers", 1 << 30, contract.CompactionPolicy{TriggerRatio: -0.5, ContextWindow: 1000}, false},
		{"negative tokens", -1, p, false},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			if diff := cmp.Diff(tt.want, compactor.ShouldCompact(tt.tokens, tt.p)); diff != "" {
				t.Errorf("mismatch (-want +got):\n%s", diff)
			}
		})
	}
}

func TestShrinks(t *testing.T) {
	withTokens := func(n int, s string) contract.Turn {
		tr := user(s)
		tr.Tokens = n
		return tr
	}
	before := []contract.Turn{withTokens(100, "a"), withTokens(100, "b"), withTokens(50, "c")}
	tests := []struct {
		name          string
		before, after []contract.Turn
		want          bool
	}{
		{"smaller", before, []contract.Turn{withTokens(20, "s"), withTokens(10, "m"), withTokens(50, "c")}, true},
		{"equal is not smaller", before, []contract.Turn{withTokens(150, "s"), withTokens(50, "c"), withTokens(50, "c")}, false},
		{"summary longer than what it replaced", before, []contract.Turn{withTokens(300, "s"), withTokens(10, "m"), withTokens(50, "c")}, false},
		{"both empty", nil, nil, false},
		{"unestimated turns still count", []contract.Turn{user("short")}, []contract.Turn{user("a much much longer text than the other one")}, false},
		{"unestimated turns shrink too", []contract.Turn{user("a much much longer text than the other one")}, []contract.Turn{user("short")}, true},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			if diff := cmp.Diff(tt.want, compactor.Shrinks(tt.before, tt.after)); diff != "" {
				t.Errorf("mismatch (-want +got):\n%s", diff)
			}
		})
	}
}
