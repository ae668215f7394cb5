package conductor

import (
	"context"
	"fmt"
	"maps"
	"slices"

	"github.com/batonrt/baton/contract"
)

// ApproveSubflow answers an approval request of the run at the subflow
// path (delegate call ids from the root, as events carry it): an empty
// path is this agent's own run.
func (a *Agent) ApproveSubflow(path []string, callID string, d Decision) error {
	ag, err := a.subflow(path)
	if err != nil {
		return err
	}
	return ag.hostSignal(func() contract.Signal { return resolution(callID, d, ag.now()) })
}

// AnswerSubflow answers a question of the run at the subflow path, as
// ApproveSubflow decides an approval. Unlike Answer, which offers the
// answer to this run and then to every child, it reaches only the run at
// the path, so a call id two runs of the tree share (call_1, say) answers
// the one the person was asked in.
func (a *Agent) AnswerSubflow(ctx context.Context, path []string, callID, answer string) error {
	ag, err := a.subflow(path)
	if err != nil {
		return err
	}
	return ag.answerOwn(ctx, callID, answer)
}

// subflow returns the agent running the run at path, a's own for an
// empty one.
func (a *Agent) subflow(path []string) (*Agent, error) {
	for _, callID := range path {
		var err error
		if a, err = a.childAgent(callID); err != nil {
			return nil, err
		}
	}
	return a, nil
}

// childAgent returns the running child of the delegate call.
func (a *Agent) childAgent(callID string) (*Agent, error) {
	var ag *Agent
	err := a.call(context.Background(), func() error {
		if a.run == nil {
			return ErrNoRun
		}
		for _, c := range a.run.children {
			if c.callID == callID {
				ag = c.begun()
			}
		}
		if ag == nil {
			return fmt.Errorf("%w: no child run for delegate call %q", ErrNoRun, callID)
		}
		return nil
	})
	return ag, err
}

// approveInChildren offers the decision to every running child, depth
// first, and reports whether one took it.
func (a *Agent) approveInChildren(callID string, d Decision) bool {
	for _, ag := range a.runningChildren() {
		if ag.Approve(callID, d) == nil {
			return true
		}
	}
	return false
}

// runningChildren returns the agents of the run's children that have
// begun, in the order of their sessions.
func (a *Agent) runningChildren() []*Agent {
	var kids []*Agent
	_ = a.call(context.Background(), func() error {
		if a.run == nil {
			return nil
		}
		for _, s := range slices.Sorted(maps.Keys(a.run.children)) {
			if ag := a.run.children[s].begun(); ag != nil {
				kids = append(kids, ag)
			}
		}
		return nil
	})
	return kids
}
