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
