package conductor

import (
	"github.com/batonrt/baton/compactor"
	"github.com/batonrt/baton/contract"
)

// replyEstimate counts a model reply's tokens for model. The turn driver
// applies it on the worker that received the reply, and the count rides
// in the signal, so neither the agent's loop nor a later replay or resume
// tokenizes the reply.
func replyEstimate(model string) func(contract.Turn) int {
	return func(t contract.Turn) int { return compactor.Estimate(model, t) }
}
