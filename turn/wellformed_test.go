package turn

import (
	"testing"

	"pgregory.net/rapid"

	"github.com/batonrt/baton/contract"
)

// randomHistory mixes user, assistant (with and without calls) and tool
// turns, with results that may answer the wrong calls or none.
func randomHistory(t *rapid.T) contract.History {
	ids := []string{"a", "b", "c"}
	n := rapid.IntRange(0, 12).Draw(t, "turns")
	var h contract.History
	for i := 0; i < n; i++ {
		switch rapid.IntRange(0, 2).Draw(t, "role") {
		case 0:
			h = h.Append(contract.UserText("hi"))
		case 1:
			turn := contract.Turn{Role: contract.RoleAssistant, Blocks: []contract.Block{contract.TextBlock("ok")}}
			for _, id := range rapid.SliceOfNDistinct(rapid.SampledFrom(ids), 0, 3, rapid.ID[string]).Draw(t, "calls") {
				turn.Blocks = append(turn.Blocks, contract.CallBlock(contract.ToolCall{ID: id, Name: "echo", Arguments: "{}"}))
			}
			h = h.Append(turn)
		default:
			turn := contract.Turn{Role: contract.RoleTool}
			for _, id := range rapid.SliceOfN(rapid.SampledFrom(ids), 1, 3).Draw(t, "results") {
				turn.Blocks = append(turn.Blocks, contract.ResultBlock(contract.ToolResult{CallID: id, Name: "echo", Content: "r"}))
			}
			h = h.Append(turn)
		}
	}
	return h
}

// TestSanitizeFastPathAgrees: whatever goes in, Sanitize's output passes
// the allocation-free check, and a history that passes it is returned
// as it is.
func TestSanitizeFastPathAgrees(t *testing.T) {
	rapid.Check(t, func(t *rapid.T) {
		h := randomHistory(t)
		out := Sanitize(h)
		if !wellFormed(out) {
			t.Fatalf("sanitized history fails the well-formed check: %+v", out.Turns())
		}
		if again := Sanitize(out); !again.Equal(out) {
			t.Fatalf("sanitize is not idempotent")
		}
		if wellFormed(h) && !out.Equal(h) {
			t.Fatalf("a well-formed history was changed")
		}
	})
}

func BenchmarkSanitizeWellFormed(b *testing.B) {
	var h contract.History
	for i := 0; i < 1000; i++ {
		h = h.Append(contract.UserText("go"))
		h = h.Append(contract.Turn{Role: contract.RoleAssistant, Blocks: []contract.Block{contract.CallBlock(contract.ToolCall{ID: "c", Name: "echo"})}})
		h = h.Append(contract.Turn{Role: contract.RoleTool, Blocks: []contract.Block{contract.ResultBlock(contract.ToolResult{CallID: "c"})}})
	}
	b.ReportAllocs()
	for b.Loop() {
		Sanitize(h)
	}
}
