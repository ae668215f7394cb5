package conductor

import (
	"context"
	"errors"
	"slices"

	"github.com/batonrt/baton/contract"
)

// Answerer answers a question the model asked a person (see
// dispatch.AskHuman). An error leaves the question pending for
// Agent.Answer or AnswerCall. It must return once ctx is done: the run
// was aborted, steered past the question, or ended.
type Answerer func(ctx context.Context, q QuestionRequest) (string, error)

// QuestionRequest is a question waiting for a person's answer.
type QuestionRequest struct {
	Call     contract.ToolCall
	Question contract.Question
	// RunID and Turn name the model reply that asked, as an
	// ApprovalRequest's do: an answer given later (CallAnswer) names them
	// to reach this call and no other of the same id.
	RunID string
	Turn  int
	// Subflow is the path of delegate call ids from the agent the host
	// made to the run that asks; nil for the agent's own run. Its
	// Answerer is asked its delegates' questions too, and call ids repeat
	// across runs, so an answer given later goes to AnswerCall with this
	// path.
	Subflow []string
}

// Answer answers a pending question with a person's text, which the
// model gets as the call's result. A question has no timeout: it waits
// for Answer (or the Answerer) across restarts, since it is part of the
// recorded snapshot. Answering an unknown or already answered call is
// refused with ErrRejected. A question a delegate's child run asked is
// answered here too, unless the run's own call of the id asked one
// (answered already, the answer is refused rather than given to a child
// whose call shares the id).
func (a *Agent) Answer(ctx context.Context, callID, answer string) error {
	_, err := a.answerTree(ctx, callID, answer)
	return err
}

// answerTree is Answer, also reporting whether a run of the tree has a
// call of the id that asks a person, answered or not (see approveTree).
func (a *Agent) answerTree(ctx context.Context, callID, answer string) (own bool, err error) {
	own, err = a.answerCall(ctx, CallAnswer{CallID: callID, Answer: answer})
	if errors.Is(err, ErrRejected) && !own {
		return a.offerChildren(ctx, func(k *Agent) (bool, error) { return k.answerTree(ctx, callID, answer) }, err)
	}
	return own, err
}

// CallAnswer is a person's answer to one question, for AnswerCall.
type CallAnswer struct {
	CallID string
	Answer string
	// RunID and Turn, when set, say which call of the id the answer is
	// for, as CallDecision's do: the one a model reply of that run and
	// turn (its RunSnapshot.Turns) made.
	RunID string
	Turn  int
}

// AnswerCall answers a question of the run at the subflow path (an empty
// path is this agent's own run), as AnswerSubflow does; with the answer's
// RunID and Turn set, only the call that reply made takes it, and an
// answer for a call of an earlier run or turn is refused with
// ErrRejected rather than given to a later call that shares its id.
func (a *Agent) AnswerCall(ctx context.Context, path []string, ans CallAnswer) error {
	return a.atSubflow(ctx, path, func(ag *Agent) error {
		_, err := ag.answerCall(ctx, ans)
		return err
	})
}

func (a *Agent) answerOwn(ctx context.Context, callID, answer string) error {
	_, err := a.answerCall(ctx, CallAnswer{CallID: callID, Answer: answer})
	return err
}

// answerCall answers the run's own question and reports whether the run
// has a call of the id that asks a person.
func (a *Agent) answerCall(ctx context.Context, ans CallAnswer) (own bool, err error) {
	err = a.call(ctx, func() error {
		if a.failed != nil {
			return a.failed
		}
		if a.run == nil {
			return ErrNoRun
		}
		own = a.ownAsk(ans.CallID, func(t contract.ToolDescriptor) bool { return t.AsksHuman })
		if err := a.askedNow(ans.CallID, ans.RunID, ans.Turn); err != nil {
			return err
		}
		return a.applyInput(contract.HumanAnswered{CallID: ans.CallID, Answer: validText(ans.Answer), At: a.now()})
	})
	return own, err
}

// ownAsk reports whether the run's batch holds a call of the id to a
// tool that asks a person as asks says, whatever its state. In turn
// (enqueue).
func (a *Agent) ownAsk(callID string, asks func(contract.ToolDescriptor) bool) bool {
	for _, p := range a.state.Pending {
		if p.Call.ID == callID && asks(p.Tool) {
			return true
		}
	}
	return false
}

// askHuman asks the Answerer, when there is one; otherwise the question
// waits for Agent.Answer.
func (a *Agent) askHuman(call contract.ToolCall, q contract.Question) {
	answerer := a.deps.People.Answerer
	if answerer == nil {
		return
	}
	run, runID, turn := a.run, a.state.RunID, a.state.Turns
	req := QuestionRequest{Call: call, Question: q, RunID: runID, Turn: turn, Subflow: slices.Clone(a.path)}
	ctx := run.asking(call.ID)
	a.spawn(run, jobFunc(func() task {
		var text string
		// A panic is a failure like an error, not an empty answer: the
		// question stays pending for Agent.Answer.
		err := guard(func() error {
			var err error
			text, err = answerer(ctx, req)
			return err
		})
		if err != nil {
			a.log.Warn("conductor: answerer failed; the question waits for Answer", "call", call.ID, "err", err)
		}
		if err != nil || ctx.Err() != nil {
			return task{}
		}
		return task{fn: func() {
			// The run may have moved on since the answer came: its call's
			// id may now be another call's, of a later turn or run.
			if a.run != run {
				return
			}
			err := a.askedNow(call.ID, runID, turn)
			if err == nil {
				err = a.apply(contract.HumanAnswered{CallID: call.ID, Answer: validText(text), At: a.now()})
			}
			if err != nil {
				a.log.Debug("conductor: answer refused", "call", call.ID, "err", err)
			}
		}}
	}))
}

// asking returns a context for a person's answer to the call, done when
// the run ends or the call is answered some other way (Agent.Answer,
// steering, an abort).
func (r *runState) asking(callID string) context.Context {
	ctx, cancel := context.WithCancel(r.ctx)
	if r.asks == nil {
		r.asks = map[string]context.CancelFunc{}
	}
	if old := r.asks[callID]; old != nil {
		old()
	}
	r.asks[callID] = cancel
	return ctx
}

// dropAnswered cancels the asks whose call no longer waits for a person.
func (r *runState) dropAnswered(pending []contract.PendingCall) {
	for id, cancel := range r.asks {
		if !waitsForPerson(pending, id) {
			cancel()
			delete(r.asks, id)
		}
	}
}

func waitsForPerson(pending []contract.PendingCall, id string) bool {
	for _, p := range pending {
		if p.Call.ID == id {
			return p.State == contract.CallAwaitingHuman || p.State == contract.CallAwaitingApproval
		}
	}
	return false
}

// waitsForPeople reports whether a run in the phase waits only for people
// (questions, approvals), with nothing running.
func waitsForPeople(p contract.Phase) bool {
	return p == contract.PhaseAwaitingHuman || p == contract.PhaseAwaitingApproval
}

// WaitsOnlyForPeople reports whether the agent's run in flight waits on
// nothing but people: its own questions and approvals, or delegates'
// children that wait only for theirs. Close leaves such a run waiting in
// the store, for Resume or Reopen to pick up; a host may let it go. With
// ctx done before the agent looks, it reports false with an error
// matching ctx's; a closed agent's run waits for nothing (false, nil).
func (a *Agent) WaitsOnlyForPeople(ctx context.Context) (bool, error) {
	waits := false
	err := a.call(ctx, func() error { waits = a.waitsOnlyForPeople(); return nil })
	if errors.Is(err, ErrClosed) {
		err = nil
	}
	return waits, err
}

// waitsOnlyForPeople reports whether the run in flight waits for people
// and for nothing else: each of its calls is done, waits for a person, or
// is a delegate call whose child's run waits only for people in turn. In
// turn (enqueue).
func (a *Agent) waitsOnlyForPeople() bool {
	switch {
	case a.run == nil || !a.state.Phase.InFlight():
		return false
	case waitsForPeople(a.state.Phase):
		return true
	case a.state.Phase != contract.PhaseAwaitingTools:
		return false
	}
	for _, p := range a.state.Pending {
		switch p.State {
		case contract.CallDone, contract.CallAwaitingHuman, contract.CallAwaitingApproval:
			continue
		}
		c := a.run.children[p.Subflow]
		if p.Subflow == "" || c == nil {
			return false
		}
		// A child about to begin is waited for: one that picks a
		// stored run up again (Resume, Reopen) may wait only for people
		// once it has.
		ag := c.begun()
		if ag == nil {
			return false // it never began
		}
		// A child's loop never waits for its parent's, so asking it from
		// here cannot deadlock.
		waits := false
		if ag.call(context.Background(), func() error { waits = ag.waitsOnlyForPeople(); return nil }) != nil || !waits {
			return false
		}
	}
	return true
}
