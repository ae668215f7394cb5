package wire

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"net/http"
	"slices"
	"strings"

	"github.com/batonrt/baton/conductor"
	"github.com/batonrt/baton/contract"
	"github.com/batonrt/baton/wire/internal/track"
)

// HumanRunner is a Runner whose questions and approval requests a client
// may answer (see HandlerOptions.ClientAnswers). AgentRunner's runners
// are.
type HumanRunner interface {
	Runner
	Answer(ctx context.Context, callID, answer string) error
	Approve(callID string, d conductor.Decision) error
}

// clientAnswer is a tool result a client posted for a call its run waits
// on.
type clientAnswer struct {
	callID, text string
}

// answer applies a client's answers to the calls the thread's run waits
// on, then streams the run on: from where it waited to its end, or to the
// next wait. An answered question's result is the client's own answer,
// so AG-UI does not send it back; an approved or denied call's result is
// what the call then did, which the client has yet to see. Answers for
// calls already answered (the AI SDK sends every output of the message
// again) are skipped; a request that answers nothing the run waits on is
// refused with 409.
func (h *Handler) answer(w http.ResponseWriter, r *http.Request, proto Protocol, threadID string, answers []clientAnswer) {
	t, ok := h.useThread(w, r, threadID)
	if !ok {
		return
	}
	defer h.release(t)
	ctx := r.Context()
	hr, ok := t.r.(HumanRunner)
	if !ok {
		httpError(w, http.StatusBadRequest, "wire: thread %q takes no answers", threadID)
		return
	}
	events, end, err := t.history(ctx)
	if err != nil {
		httpError(w, http.StatusInternalServerError, "wire: events of %q: %v", threadID, err)
		return
	}
	applied, status, err := applyAnswers(ctx, hr, answers, childAsks(events))
	if err != nil {
		httpError(w, status, "%v", err)
		return
	}
	s := h.newStreamer(w, r, t, proto)
	s.park = h.opts.ClientAnswers
	s.answered = applied
	w.WriteHeader(http.StatusOK)
	if err := s.carryOn(ctx, events, end, false); err != nil && ctx.Err() == nil {
		h.opts.Logger.Warn("wire: answered stream ended early", "thread", threadID, "err", err)
	}
}

// applyAnswers answers each call that waits: a question with the text, an
// approval with the decision the text holds. The map it returns holds
// every call it answered, true for a question (whose result is the
// answer) and false for an approval (whose result is still to come).
func applyAnswers(ctx context.Context, hr HumanRunner, answers []clientAnswer, asked map[string]contract.EventKind) (map[string]bool, int, error) {
	snap := hr.Snapshot()
	if !snap.Phase.InFlight() {
		return nil, http.StatusConflict, fmt.Errorf("wire: thread %q has no run waiting for an answer", snap.SessionID)
	}
	applied := map[string]bool{}
	for _, a := range answers {
		// Read again for each answer: an earlier one may have decided this
		// call too (approving for the session allows every call waiting
		// with the same keys), which leaves it like an answered call.
		state := callState(hr.Snapshot(), a.callID)
		var err error
		// The run's own call is answered in the run only: should another
		// client's answer land first, this one is refused rather than
		// offered to a delegate's child whose call shares the id.
		switch state {
		case contract.CallAwaitingHuman:
			err = answerSubflow(ctx, hr, nil, a.callID, a.text)
		case contract.CallAwaitingApproval:
			var d conductor.Decision
			if d, err = decision(a.text); err != nil {
				return nil, http.StatusBadRequest, err
			}
			err = approveSubflow(hr, nil, a.callID, d)
		default:
			path, id, ok := subflowCall(a.callID)
			if !ok {
				continue
			}
			kind, waits := asked[a.callID]
			if kind == contract.EvApprovalRequested {
				// A delegated run's approval request, decided in the run
				// at its path.
				var d conductor.Decision
				if d, err = decision(a.text); err != nil {
					return nil, http.StatusBadRequest, err
				}
				state = contract.CallAwaitingApproval
				err = approveSubflow(hr, path, id, d)
			} else {
				// A delegated run's question, answered in the run at its path.
				err = answerSubflow(ctx, hr, path, id, a.text)
			}
			if !waits && (errors.Is(err, conductor.ErrRejected) || errors.Is(err, conductor.ErrNoRun) || errors.Is(err, conductor.ErrClosed)) {
				continue // no child waits on it (or no more)
			}
		}
		if err != nil {
			return nil, http.StatusConflict, fmt.Errorf("wire: answer %q: %w", a.callID, err)
		}
		applied[a.callID] = state != contract.CallAwaitingApproval
	}
	if len(applied) == 0 {
		return nil, http.StatusConflict, fmt.Errorf("wire: no call of thread %q waits for these answers", snap.SessionID)
	}
	return applied, http.StatusOK, nil
}

// childAsks are the questions and approval requests delegated runs made
// in events and that wait for an answer, by the id a client answers them
// under (track.SubflowCallID), with the kind of event that asked.
func childAsks(events []contract.RunEvent) map[string]contract.EventKind {
	asked := map[string]contract.EventKind{}
	for _, ev := range events {
		if len(ev.Subflow) == 0 || ev.Call == nil {
			continue
		}
		switch ev.Kind {
		case contract.EvQuestionAsked, contract.EvApprovalRequested:
			asked[track.SubflowCallID(ev)] = ev.Kind
		case contract.EvQuestionAnswered, contract.EvApprovalResolved:
			delete(asked, track.SubflowCallID(ev))
		}
	}
	return asked
}

// SubflowAnswerer is a HumanRunner that answers a question of the
// delegated run at a subflow path, and that run's only (see
// conductor.Agent.AnswerSubflow). AgentRunner's runners are; a runner
// that is not has a delegated run's answer offered to the whole tree by
// Answer, where a call id two runs share may take it in the wrong one.
type SubflowAnswerer interface {
	AnswerSubflow(ctx context.Context, path []string, callID, answer string) error
}

// SubflowApprover is a HumanRunner that decides an approval request of the
// delegated run at a subflow path (see conductor.Agent.ApproveSubflow).
// AgentRunner's runners are; a runner that is not has the decision
// offered to the whole tree by Approve.
type SubflowApprover interface {
	ApproveSubflow(path []string, callID string, d conductor.Decision) error
}

func approveSubflow(hr HumanRunner, path []string, callID string, d conductor.Decision) error {
	if sa, ok := hr.(SubflowApprover); ok {
		return sa.ApproveSubflow(path, callID, d)
	}
	return hr.Approve(callID, d)
}

func answerSubflow(ctx context.Context, hr HumanRunner, path []string, callID, text string) error {
	if sa, ok := hr.(SubflowAnswerer); ok {
		return sa.AnswerSubflow(ctx, path, callID, text)
	}
	return hr.Answer(ctx, callID, text)
}

// subflowCall splits the id a client answers a delegated run's call under
// (track.SubflowCallID) into the run's path and the call's id. The id
// says it all: after a restart the thread's events, the parent's
// session's, no longer hold the child's question, yet a client that kept
// it still answers it.
func subflowCall(id string) (path []string, callID string, ok bool) {
	parts := strings.Split(id, "/")
	if len(parts) < 2 || slices.Contains(parts, "") {
		return nil, "", false
	}
	return parts[:len(parts)-1], parts[len(parts)-1], true
}

func callState(s contract.RunSnapshot, id string) contract.CallState {
	for _, p := range s.Pending {
		if p.Call.ID == id {
			return p.State
		}
	}
	return ""
}

// decision reads an approval's answer: {"approved": bool, "scope":
// "once"|"session", "reason": "..."}, or one of yes, always, no.
func decision(text string) (conductor.Decision, error) {
	var d struct {
		Approved *bool                  `json:"approved"`
		Scope    contract.ApprovalScope `json:"scope"`
		Reason   string                 `json:"reason"`
	}
	if json.Unmarshal([]byte(text), &d) == nil && d.Approved != nil {
		switch d.Scope {
		case "", contract.ScopeOnce, contract.ScopeSession:
		default:
			return conductor.Decision{}, fmt.Errorf("wire: approval scope %q is neither once nor session", d.Scope)
		}
		return conductor.Decision{Approved: *d.Approved, Scope: d.Scope, Reason: d.Reason}, nil
	}
	switch strings.ToLower(strings.TrimSpace(text)) {
	case "yes", "y", "approve", "approved":
		return conductor.Decision{Approved: true, Scope: contract.ScopeOnce}, nil
	case "always", "session":
		return conductor.Decision{Approved: true, Scope: contract.ScopeSession}, nil
	case "no", "n", "deny", "denied":
		return conductor.Decision{Reason: "the user said no"}, nil
	}
	return conductor.Decision{}, fmt.Errorf(`wire: an approval answer is {"approved": bool, "scope": "once"|"session"} or one of yes, always, no; got %q`, text)
}
