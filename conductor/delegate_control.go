package conductor

import (
	"context"
	"errors"
	"fmt"
	"maps"
	"slices"
	"strings"

	"github.com/batonrt/baton/contract"
)

// ApproveSubflow answers an approval request of the run at the subflow
// path (delegate call ids from the root, as events carry it): an empty
// path is this agent's own run. With ctx done before the run at the path
// takes the decision up, nothing is decided and the error matches ctx's;
// a decision taken up has its own result whatever ctx does meanwhile.
func (a *Agent) ApproveSubflow(ctx context.Context, path []string, callID string, d Decision) error {
	if err := unknownScope(d); err != nil {
		return err
	}
	return a.atSubflow(ctx, path, func(ag *Agent) error {
		return ag.hostSignal(ctx, func() (contract.Signal, error) { return resolution(callID, d, ag.now()), nil })
	})
}

// AnswerSubflow answers a question of the run at the subflow path, as
// ApproveSubflow decides an approval. Unlike Answer, which offers the
// answer to this run and then to every child, it reaches only the run at
// the path, so a call id two runs of the tree share (call_1, say) answers
// the one the person was asked in.
func (a *Agent) AnswerSubflow(ctx context.Context, path []string, callID, answer string) error {
	return a.atSubflow(ctx, path, func(ag *Agent) error { return ag.answerOwn(ctx, callID, answer) })
}

// atSubflow does fn on the agent running the run at path. A child whose
// run ended since it was found is closed, whether it runs the run at
// path or one on the way there: that is ErrNoRun, as for this agent's own
// ended run, not ErrClosed, which would say this agent was. With ctx done
// before the run at path is found, fn is not done and the error matches
// ctx's.
func (a *Agent) atSubflow(ctx context.Context, path []string, fn func(*Agent) error) error {
	ag, err := a.subflow(ctx, path)
	if err == nil {
		err = fn(ag)
	}
	if len(path) > 0 && errors.Is(err, ErrClosed) && a.call(context.Background(), func() error { return nil }) == nil {
		return fmt.Errorf("%w: the run at subflow %q has ended", ErrNoRun, strings.Join(path, "/"))
	}
	return err
}

// subflow returns the agent running the run at path, a's own for an
// empty one.
func (a *Agent) subflow(ctx context.Context, path []string) (*Agent, error) {
	for _, callID := range path {
		var err error
		if a, err = a.childAgent(ctx, callID); err != nil {
			return nil, err
		}
	}
	return a, nil
}

// childAgent returns the child running for the delegate call of the
// batch in flight. Models reuse call ids from turn to turn, and the run
// keeps the children of every turn's delegate calls: only the batch's
// call, still unanswered, names a child whose run goes on.
func (a *Agent) childAgent(ctx context.Context, callID string) (*Agent, error) {
	var ag *Agent
	err := a.call(ctx, func() error {
		if a.run == nil {
			return ErrNoRun
		}
		for _, p := range a.state.Pending {
			if c := a.run.children[p.Subflow]; c != nil && p.Call.ID == callID && p.State != contract.CallDone {
				ag = c.begun()
			}
		}
		if ag == nil {
			return fmt.Errorf("%w: no child run in flight for delegate call %q", ErrNoRun, callID)
		}
		return nil
	})
	return ag, err
}

// offerChildren offers an answer or a decision the run has no call for
// to every running child (fn, which also reports whether the child's
// tree has a call of the id that asks), depth first, and returns nil
// once one takes it. Otherwise it returns the store failure of a child
// whose store refused it, which ended that child's run, or that had
// failed before; or else, when ctx was done before a child could take
// it (it may have been for that child), the error matching ctx's; or
// else the refusal of a child that has the call, which says why the call
// no longer waits (decided or answered already); or else refusal, the
// run's own. own reports whether some child has the call.
func (a *Agent) offerChildren(ctx context.Context, fn func(*Agent) (bool, error), refusal error) (own bool, err error) {
	kids, err := a.runningChildren(ctx)
	if err != nil {
		return false, err
	}
	var failed, untaken, owned error
	for _, k := range kids {
		has, err := fn(k.agent)
		own = own || has
		switch {
		case err == nil:
			return own, nil
		case errors.Is(err, contract.ErrStore) && failed == nil:
			failed = err
		case ctx.Err() != nil && errors.Is(err, ctx.Err()) && untaken == nil:
			untaken = err
		case has && owned == nil:
			owned = err
		}
	}
	switch {
	case failed != nil:
		return own, failed
	case untaken != nil:
		return own, untaken
	case owned != nil:
		return own, owned
	}
	return own, refusal
}

// runningChild is a child run that has begun, with its delegate call.
type runningChild struct {
	callID string
	agent  *Agent
}

// runningChildren returns the run's children that have begun, in the
// order of their sessions: none once the agent is closed, and the error
// matching ctx's when ctx is done before the agent looks.
func (a *Agent) runningChildren(ctx context.Context) ([]runningChild, error) {
	var kids []runningChild
	err := a.call(ctx, func() error {
		if a.run == nil {
			return nil
		}
		for _, s := range slices.Sorted(maps.Keys(a.run.children)) {
			c := a.run.children[s]
			if ag := c.begun(); ag != nil {
				kids = append(kids, runningChild{c.callID, ag})
			}
		}
		return nil
	})
	if errors.Is(err, ErrClosed) {
		err = nil
	}
	return kids, err
}

// SubflowAsks returns what the runs of the agent's delegates, at every
// depth, still wait on people for: the question_asked and
// approval_requested events of their calls that await an answer or a
// decision, each with its subflow path from this agent, as the live
// stream carried them. The agent's own session holds only its own
// events, so a client that connects after a restart learns a delegate's
// open questions from here.
func (a *Agent) SubflowAsks(ctx context.Context) ([]contract.RunEvent, error) {
	var out []contract.RunEvent
	kids, err := a.runningChildren(ctx)
	if err != nil {
		return nil, err
	}
	for _, k := range kids {
		own, err := k.agent.openAsks(ctx)
		if err != nil {
			return nil, err
		}
		deeper, err := k.agent.SubflowAsks(ctx)
		if err != nil {
			return nil, err
		}
		for _, ev := range append(own, deeper...) {
			ev.Subflow = append([]string{k.callID}, ev.Subflow...)
			out = append(out, ev)
		}
	}
	return out, nil
}

// openAsks returns the events that asked for the agent's own calls that
// still await a person, from its session.
func (a *Agent) openAsks(ctx context.Context) ([]contract.RunEvent, error) {
	waiting := map[string]contract.EventKind{}
	for _, p := range a.Snapshot().Pending {
		switch p.State {
		case contract.CallAwaitingHuman:
			waiting[p.Call.ID] = contract.EvQuestionAsked
		case contract.CallAwaitingApproval:
			waiting[p.Call.ID] = contract.EvApprovalRequested
		}
	}
	if len(waiting) == 0 {
		return nil, nil
	}
	events, err := a.EventsSince(ctx, 0)
	if err != nil {
		return nil, err
	}
	// A call asked again (its run resumed under another rule) counts
	// once, as last asked.
	last := map[string]int{}
	var out []contract.RunEvent
	for _, ev := range events {
		if ev.Call == nil || len(ev.Subflow) > 0 || waiting[ev.Call.ID] != ev.Kind {
			continue
		}
		if i, ok := last[ev.Call.ID]; ok {
			out[i] = ev
			continue
		}
		last[ev.Call.ID] = len(out)
		out = append(out, ev)
	}
	return out, nil
}
