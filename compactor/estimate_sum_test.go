package compactor_test

import (
	"testing"

	"github.com/batonrt/baton/compactor"
	"github.com/batonrt/baton/contract"
	"pgregory.net/rapid"
)

// A turn's estimate is its overhead plus its blocks' estimates, so a
// worker can count a tool result alone and the turn adds the counts up.
func TestEstimateIsTheSumOfBlockEstimates(t *testing.T) {
	rapid.Check(t, func(t *rapid.T) {
		model := rapid.SampledFrom([]string{"gpt-4o", "gpt-3.5-turbo", "llama-3", "scripted"}).Draw(t, "model")
		var turn contract.Turn
		for range rapid.IntRange(0, 4).Draw(t, "blocks") {
			text := rapid.String().Draw(t, "text")
			switch rapid.IntRange(0, 3).Draw(t, "kind") {
			case 0:
				turn.Blocks = append(turn.Blocks, contract.TextBlock(text))
			case 1:
				turn.Blocks = append(turn.Blocks, contract.CallBlock(contract.ToolCall{ID: "c", Name: "echo", Arguments: text}))
			case 2:
				turn.Blocks = append(turn.Blocks, contract.ResultBlock(contract.ToolResult{CallID: "c", Content: text}))
			default:
				turn.Blocks = append(turn.Blocks, contract.Block{Kind: contract.BlockThinking, Text: text})
			}
		}
		sum := compactor.PerTurnOverhead
		for _, b := range turn.Blocks {
			sum += compactor.BlockEstimate(model, b)
		}
		if got := compactor.Estimate(model, turn); got != sum {
			t.Fatalf("Estimate %d, blocks add up to %d", got, sum)
		}
	})
}

// A worker counts a result without making its block: the count is the
// block's.
func TestResultEstimateIsTheResultBlocks(t *testing.T) {
	rapid.Check(t, func(t *rapid.T) {
		model := rapid.SampledFrom([]string{"gpt-4o", "gpt-3.5-turbo", "llama-3", "scripted"}).Draw(t, "model")
		content := rapid.String().Draw(t, "content")
		want := compactor.BlockEstimate(model, contract.ResultBlock(contract.ToolResult{CallID: "c", Content: content}))
		if got := compactor.ResultEstimate(model, content); got != want {
			t.Fatalf("ResultEstimate %d, the result block's estimate %d", got, want)
		}
	})
}
