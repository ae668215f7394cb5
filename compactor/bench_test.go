package compactor_test

import (
	"strings"
	"testing"

	"github.com/batonrt/baton/compactor"
	"github.com/batonrt/baton/contract"
)

// benchTurn is about 200 words of ordinary prose.
var benchTurn = contract.UserText(strings.Repeat("The quick brown fox jumps over the lazy dog while the agent reads files, calls tools and writes a careful answer. ", 10))

func BenchmarkEstimate(b *testing.B) {
	for _, model := range []string{"gpt-4o", "claude-sonnet-4-5", "unknown-local-model"} {
		b.Run(model, func(b *testing.B) {
			compactor.Estimate(model, benchTurn)
			b.ReportAllocs()
			for b.Loop() {
				compactor.Estimate(model, benchTurn)
			}
		})
	}
}

func BenchmarkFindCutPoint(b *testing.B) {
	var turns []contract.Turn
	for i := range 500 {
		id := strings.Repeat("x", i%7+1) + string(rune('a'+i%26))
		turns = append(turns, user("q"), calling(id+"1", id+"2"), results(id+"1", id+"2"), assistant("a"))
	}
	b.ReportAllocs()
	for b.Loop() {
		compactor.FindCutPoint(turns, 8)
	}
}
