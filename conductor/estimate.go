package conductor

import (
	"github.com/batonrt/baton/compactor"
	"github.com/batonrt/baton/contract"
)

// withEstimate counts a model reply's tokens on the worker that received
// it and carries the count in the signal, so neither the agent's loop nor
// a later replay or resume tokenizes the reply.
func withEstimate(model string, r contract.ModelReplied) contract.ModelReplied {
	r.Reply.Tokens = compactor.Estimate(model, r.Reply)
	return r
}

// resultEstimate counts, on the tool's worker, the result block a tool's
// output becomes.
func resultEstimate(model, content string) int {
	return compactor.BlockEstimate(model, contract.ResultBlock(contract.ToolResult{Content: content}))
}
