package conductor

import (
	"context"

	"github.com/batonrt/baton/contract"
	"github.com/batonrt/baton/dispatch"
)

// submission is what a Submit brings to the agent: its input and what the
// retriever made of it.
type submission struct {
	input, retrieved []contract.Turn
	// retrievalErr says why the retriever failed, when it did and is not
	// optional.
	retrievalErr string
	// instructions are the project instruction files found for the run.
	instructions []contract.Instruction
	// tools are the run's own tools, given to Submit.
	tools []dispatch.Tool
	// allowed is what a delegate's child run starts allowed: its
	// parent's allowlist.
	allowed []string
}

// retrieve asks the retriever, if any, for context. A failure (an error
// or a panic) comes back as its message, to be recorded in the submit so
// the run faults with kind retrieval; an optional retriever's failure is
// logged and the run goes on without context.
func (a *Agent) retrieve(ctx context.Context, input []contract.Turn) ([]contract.Turn, string) {
	r := a.deps.Retrieval.Retriever
	if r == nil {
		return nil, ""
	}
	retrieved, err := callRetriever(ctx, r, input)
	if err != nil {
		if a.deps.Retrieval.Optional {
			a.log.Warn("conductor: optional retriever failed; the run goes on without its context", "err", err)
			return nil, ""
		}
		return nil, validText(err.Error())
	}
	return contextTurns(a.log, a.est, retrieved), ""
}

func callRetriever(ctx context.Context, r Retriever, input []contract.Turn) ([]contract.Turn, error) {
	return guarded("conductor: retriever", func() ([]contract.Turn, error) { return r(ctx, input) })
}
