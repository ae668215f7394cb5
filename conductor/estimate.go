package conductor

import (
	"github.com/batonrt/baton/compactor"
	"github.com/batonrt/baton/contract"
)

// estimator counts tokens for the config's model as its rules revision
// does, so a count carried in a signal is the one the rules would make.
func estimator(cfg contract.AgentConfig) compactor.Estimator {
	return compactor.EstimatorFor(cfg.Model, cfg.Revision)
}

// replyEstimate counts a model reply's tokens. The turn driver applies it
// on the worker that received the reply, and the count rides in the
// signal, so neither the agent's loop nor a later replay or resume
// tokenizes the reply.
func replyEstimate(e compactor.Estimator) func(contract.Turn) int {
	return e.Turn
}
