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

// TestIncrementalSanitizeAgrees: a driver that remembers the last history
// it verified sanitizes every extension of it exactly as Sanitize does.
func TestIncrementalSanitizeAgrees(t *testing.T) {
	rapid.Check(t, func(t *rapid.T) {
		d := NewDriver(nil, Options{})
		h := d.sanitize(randomHistory(t))
		for range rapid.IntRange(1, 4).Draw(t, "requests") {
			grown := h
			for _, turn := range randomHistory(t).Turns() {
				grown = grown.Append(turn)
			}
			got, want := d.sanitize(grown), Sanitize(grown)
			if !got.Equal(want) {
				t.Fatalf("incremental sanitize differs:\n got %+v\nwant %+v", got.Turns(), want.Turns())
			}
			h = got
		}
	})
}

func TestHistoryAfter(t *testing.T) {
	base := contract.HistoryOf(contract.UserText("a"), contract.UserText("b"))
	grown := base.Append(contract.UserText("c"))
	if added, ok := grown.After(base); !ok || len(added) != 1 || added[0].Text() != "c" {
		t.Fatalf("After(base) = %v, %v", added, ok)
	}
	other := contract.HistoryOf(contract.UserText("a"), contract.UserText("b"))
	if _, ok := grown.After(other); ok {
		t.Fatal("an equal but unrelated history counted as a prefix")
	}
	if _, ok := base.After(grown); ok {
		t.Fatal("a longer history counted as a prefix")
	}
}
