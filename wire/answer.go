package wire

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"net/http"
	"reflect"
	"slices"
	"strconv"
	"strings"

	"github.com/batonrt/baton/conductor"
	"github.com/batonrt/baton/contract"
	"github.com/batonrt/baton/internal/redact"
	"github.com/batonrt/baton/wire/internal/track"
)

// HumanRunner is a Runner whose questions and approval requests a client
// may answer (see HandlerOptions.ClientAnswers). AgentRunner's runners
// are.
type HumanRunner interface {
	Runner
	Answer(ctx context.Context, callID, answer string) error
	Approve(ctx context.Context, callID string, d conductor.Decision) error
}

// clientAnswer is a tool result a client posted for a call its run waits
// on.
type clientAnswer struct {
	callID, text string
	// input is the call's input as the client holds it, when its protocol
	// sends it (the AI SDK's tool part does): an answer to an earlier call
	// of the same id is not taken by the call that waits.
	input json.RawMessage
}

// answer applies a client's answers to the calls the thread's run waits
// on, then streams the run on: from where it waited to its end, or to the
// next wait. An answered question's result is the client's own answer,
// so AG-UI does not send it back; an approved or denied call's result is
// what the call then did, which the client has yet to see. Answers for
// calls already answered (the AI SDK sends every output of the message
// again) are skipped; a request that answers nothing the run waits on is
// refused with 409, as is one with an answer another client's got in
// before, its message saying which of the request's answers were applied
// first. So is an AI SDK client's answer to an earlier call of the id
// the run waits on (its tool part's input is not the call's arguments):
// a model may reuse call ids, and a client that had not seen the run
// move on would otherwise decide a call it never showed.
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
		h.internalError(w, err, "wire: events of thread %q could not be read", threadID)
		return
	}
	applied, status, err := applyAnswers(ctx, threadID, hr, answers, childAsks(events))
	if err != nil {
		httpError(w, status, "%v", err)
		return
	}
	s := h.newStreamer(w, r, t, proto)
	s.park = h.opts.ClientAnswers
	s.answered = applied
	w.WriteHeader(http.StatusOK)
	if err := s.carryOn(ctx, events, end, ""); err != nil && ctx.Err() == nil {
		h.opts.Logger.Warn("wire: answered stream ended early", "thread", threadID, "err", err)
	}
}

// applyAnswers answers each call that waits: a question with the text, an
// approval with the decision the text holds. The map it returns holds
// every call it answered, true for a question (whose result is the
// answer) and false for an approval (whose result is still to come).
// Every answer is read against the run before any is applied, so a bad
// decision applies nothing; the decisions on each run's approval
// requests are then applied together (CallsApprover), so a call the
// client denied or approved once keeps that decision when an "always"
// in the same request would allow it too.
func applyAnswers(ctx context.Context, threadID string, hr HumanRunner, answers []clientAnswer, asked map[string]childAsk) (map[string]bool, int, error) {
	snap := hr.Snapshot()
	// The thread is named as its client names it: its session's id may
	// hold a namespace and the user's name.
	if !snap.Phase.InFlight() {
		return nil, http.StatusConflict, fmt.Errorf("wire: thread %q has no run waiting for an answer", threadID)
	}
	applied, status, err := applyWaiting(ctx, hr, snap, answers, asked)
	if err == nil && len(applied) == 0 {
		return nil, http.StatusConflict, fmt.Errorf("wire: no call of thread %q waits for these answers", threadID)
	}
	return applied, status, err
}

// applyWaiting applies the answers to the calls of the run (as snap
// found it) that wait on them, as applyAnswers does, and returns those
// it applied, maybe none.
func applyWaiting(ctx context.Context, hr HumanRunner, snap contract.RunSnapshot, answers []clientAnswer, asked map[string]childAsk) (map[string]bool, int, error) {
	steps, err := planAnswers(snap, answers, asked)
	if err != nil {
		return nil, http.StatusBadRequest, err
	}
	applied := map[string]bool{}
	for _, err := range []error{applyDecisions(ctx, hr, steps, applied), applyOthers(ctx, hr, steps, applied)} {
		if err != nil {
			code, err := answerFailure(err)
			return nil, code, partly(err, answers, applied)
		}
	}
	return applied, http.StatusOK, nil
}

// answerFailure is the status and the client's error for answers that
// failed: 409 for answers the run refused or no longer waits on, 500 for
// a failure to record them; without addresses or keys either way, as a
// failed steer's (steerFailure): a refusal by an agent whose store
// failed carries the store's error.
func answerFailure(err error) (int, error) {
	code := http.StatusInternalServerError
	re, ok := contract.AsRunError(err)
	if errors.Is(err, conductor.ErrRejected) || errors.Is(err, conductor.ErrNoRun) || errors.Is(err, conductor.ErrClosed) || ok && re.Kind == contract.KindConfig {
		code = http.StatusConflict
	}
	return code, redactedError{err}
}

// redactedError is err with the addresses and keys in its text
// redacted; errors.Is and As still see err.
type redactedError struct{ err error }

func (e redactedError) Error() string { return redact.Error(e.err.Error()) }
func (e redactedError) Unwrap() error { return e.err }

// carryAnswers applies the answers a client gave along with a message
// that steers the run in flight, to the calls that wait on them; answers
// to calls that wait no more are left out, as the message is what the
// client sent. A runner that takes no answers, or a run that ended,
// takes none.
func carryAnswers(ctx context.Context, r Runner, answers []clientAnswer, events []contract.RunEvent) (map[string]bool, int, error) {
	hr, ok := r.(HumanRunner)
	if !ok {
		return nil, http.StatusOK, nil
	}
	snap := hr.Snapshot()
	if !snap.Phase.InFlight() {
		return nil, http.StatusOK, nil
	}
	return applyWaiting(ctx, hr, snap, answers, childAsks(events))
}

// partly says, with the error that stopped a request's answers, which
// of them were applied before it: the run has moved on by those.
func partly(err error, answers []clientAnswer, applied map[string]bool) error {
	var ids []string
	for _, a := range answers {
		id := strconv.Quote(a.callID)
		if _, ok := applied[a.callID]; ok && !slices.Contains(ids, id) {
			ids = append(ids, id)
		}
	}
	if len(ids) == 0 {
		return fmt.Errorf("%w; no answer was applied", err)
	}
	return fmt.Errorf("%w; the answers to %s were applied before it, and the run goes on with them", err, strings.Join(ids, ", "))
}

// answerStep is one answer of a request, read against the run as the
// request found it.
type answerStep struct {
	// id is what the client answered under; path and callID name the
	// call in its run, path nil for the run's own.
	id     string
	path   []string
	callID string
	text   string
	// runID and turn name the model reply that made a call of the run's
	// own, as the request found it: a model may reuse a call id in its
	// next reply, so the answer reaches that call only, not one the run
	// asked under the same id since.
	runID string
	turn  int
	// approval is set for a decision, d.
	approval bool
	d        conductor.Decision
	// waits is set when the call is known to wait: the run's own by its
	// state, a delegated run's by its ask in the thread's events.
	waits bool
}

// planAnswers reads each answer against the run: answers to calls that
// do not wait are left out (the AI SDK sends every output of the message
// again), as is a second answer to one call; a decision that cannot be
// read is an error.
func planAnswers(snap contract.RunSnapshot, answers []clientAnswer, asked map[string]childAsk) ([]answerStep, error) {
	var steps []answerStep
	seen := map[string]bool{}
	for _, a := range answers {
		if seen[a.callID] {
			continue
		}
		seen[a.callID] = true
		st := answerStep{id: a.callID, callID: a.callID, text: a.text, waits: true, runID: snap.RunID, turn: snap.Turns}
		p, own := pendingCall(snap, a.callID)
		if own && !sameInput(a.input, p.Call.Arguments) {
			// The client answers an earlier call of the id, whose run has
			// moved on since (another client answered it): not this one.
			continue
		}
		switch p.State {
		case contract.CallAwaitingHuman:
		case contract.CallAwaitingApproval:
			st.approval = true
		default:
			// The run's own call is answered in the run only: should another
			// client's answer land first, this one is refused rather than
			// offered to a delegate's child whose call shares the id.
			path, id, ok := subflowCall(a.callID)
			if !ok {
				continue
			}
			ask, waits := asked[a.callID]
			if waits && !sameInput(a.input, ask.args) {
				continue // an earlier call of the id, as for the run's own
			}
			// The child's call is the one the events showed, of its run
			// and turn: a decision read for it is not taken by a later
			// call of the id.
			st.path, st.callID, st.waits, st.runID, st.turn = path, id, waits, ask.runID, ask.turn
			// A delegated run's approval request is decided in the run at
			// its path, its question answered there.
			st.approval = ask.kind == contract.EvApprovalRequested
		}
		if st.approval {
			var err error
			if st.d, err = decision(a.text); err != nil {
				return nil, err
			}
		}
		steps = append(steps, st)
	}
	return steps, nil
}

// applyDecisions applies the decisions on calls known to wait, each run's
// together.
func applyDecisions(ctx context.Context, hr HumanRunner, steps []answerStep, applied map[string]bool) error {
	var paths [][]string
	byPath := map[string][]answerStep{}
	for _, st := range steps {
		if !st.approval || !st.waits {
			continue
		}
		key := strings.Join(st.path, "/")
		if _, ok := byPath[key]; !ok {
			paths = append(paths, st.path)
		}
		byPath[key] = append(byPath[key], st)
	}
	for _, path := range paths {
		group := byPath[strings.Join(path, "/")]
		if err := approveCalls(ctx, hr, path, group); err != nil {
			return err
		}
		for _, st := range group {
			applied[st.id] = false
		}
	}
	return nil
}

// applyOthers answers the questions, and decides the delegated runs'
// calls not known to wait, one by one.
func applyOthers(ctx context.Context, hr HumanRunner, steps []answerStep, applied map[string]bool) error {
	for _, st := range steps {
		if st.approval && st.waits {
			continue
		}
		var err error
		if st.approval {
			err = approveSubflow(ctx, hr, st.path, st.callID, st.d)
		} else {
			err = answerSubflow(ctx, hr, st)
		}
		if !st.waits && (errors.Is(err, conductor.ErrRejected) || errors.Is(err, conductor.ErrNoRun) || errors.Is(err, conductor.ErrClosed)) {
			continue // no child waits on it (or no more)
		}
		if err != nil {
			return fmt.Errorf("wire: answer %q: %w", st.id, err)
		}
		applied[st.id] = !st.approval
	}
	return nil
}

// approveCalls decides calls of the run at path together. A runner that
// cannot has them decided one by one, the calls' own decisions first; an
// approval for the session refused once another has been applied is
// taken as done by that one.
func approveCalls(ctx context.Context, hr HumanRunner, path []string, group []answerStep) error {
	if ca, ok := hr.(CallsApprover); ok {
		ds := make([]conductor.CallDecision, len(group))
		for i, st := range group {
			ds[i] = conductor.CallDecision{CallID: st.callID, Decision: st.d, RunID: st.runID, Turn: st.turn}
		}
		if err := ca.ApproveCalls(ctx, path, ds); err != nil {
			return fmt.Errorf("wire: decide %s: %w", answerIDs(group), err)
		}
		return nil
	}
	allowed := false
	for _, session := range []bool{false, true} {
		for _, st := range group {
			if forSession(st.d) != session {
				continue
			}
			err := approveSubflow(ctx, hr, st.path, st.callID, st.d)
			if allowed && session && errors.Is(err, conductor.ErrRejected) {
				continue
			}
			if err != nil {
				return fmt.Errorf("wire: answer %q: %w", st.id, err)
			}
			allowed = allowed || session
		}
	}
	return nil
}

// forSession reports whether d approves for the session, which may
// decide other calls too.
func forSession(d conductor.Decision) bool {
	return d.Approved && d.Scope == contract.ScopeSession
}

func answerIDs(group []answerStep) string {
	ids := make([]string, len(group))
	for i, st := range group {
		ids[i] = strconv.Quote(st.id)
	}
	return strings.Join(ids, ", ")
}

// childAsk is a question or approval request a delegated run made and
// that waits for an answer, as the thread's events showed it.
type childAsk struct {
	kind contract.EventKind
	// runID and turn name the model reply of the child's run that made
	// the call; turn is 0 when the events hold no turn_started of that
	// run before the ask (a thread opened after a restart).
	runID string
	turn  int
	args  string
}

// childAsks are the questions and approval requests delegated runs made
// in events and that wait for an answer, by the id a client answers them
// under (track.SubflowCallID). The turn of each is the one the last
// turn_started of its run before it began.
func childAsks(events []contract.RunEvent) map[string]childAsk {
	asked := map[string]childAsk{}
	type runTurn struct {
		runID string
		turn  int
	}
	turns := map[string]runTurn{}
	for _, ev := range events {
		if len(ev.Subflow) == 0 {
			continue
		}
		path := strings.Join(ev.Subflow, "/")
		if ev.Kind == contract.EvTurnStarted {
			turns[path] = runTurn{ev.RunID, ev.Round}
			continue
		}
		if ev.Call == nil {
			continue
		}
		switch ev.Kind {
		case contract.EvQuestionAsked, contract.EvApprovalRequested:
			ask := childAsk{kind: ev.Kind, runID: ev.RunID, args: ev.Call.Arguments}
			if rt := turns[path]; rt.runID == ev.RunID {
				ask.turn = rt.turn
			}
			asked[track.SubflowCallID(ev)] = ask
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
	ApproveSubflow(ctx context.Context, path []string, callID string, d conductor.Decision) error
}

// CallsApprover is a HumanRunner that decides several approval requests
// of the run at a subflow path together (see
// conductor.Agent.ApproveCalls), as a request that answers them all
// means: each call's own decision comes before an approval for the
// session, which would otherwise decide the calls after it. AgentRunner's
// runners are; a runner that is not has them decided one by one in that
// order.
type CallsApprover interface {
	ApproveCalls(ctx context.Context, path []string, ds []conductor.CallDecision) error
}

// CallAnswerer is a HumanRunner that answers a question of the run at a
// subflow path only when it is the call the client was asked, by its run
// and turn as well as its id (see conductor.Agent.AnswerCall): a model
// may reuse a call id in its next reply, and an answer given for the
// earlier call is then refused rather than taken by the later one.
// AgentRunner's runners are; the handler answers through it before
// SubflowAnswerer, and a runner that is not answers whichever call of the
// id waits.
type CallAnswerer interface {
	AnswerCall(ctx context.Context, path []string, ans conductor.CallAnswer) error
}

func approveSubflow(ctx context.Context, hr HumanRunner, path []string, callID string, d conductor.Decision) error {
	if sa, ok := hr.(SubflowApprover); ok {
		return sa.ApproveSubflow(ctx, path, callID, d)
	}
	return hr.Approve(ctx, callID, d)
}

func answerSubflow(ctx context.Context, hr HumanRunner, st answerStep) error {
	if ca, ok := hr.(CallAnswerer); ok {
		return ca.AnswerCall(ctx, st.path, conductor.CallAnswer{CallID: st.callID, Answer: st.text, RunID: st.runID, Turn: st.turn})
	}
	if sa, ok := hr.(SubflowAnswerer); ok {
		return sa.AnswerSubflow(ctx, st.path, st.callID, st.text)
	}
	return hr.Answer(ctx, st.callID, st.text)
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

// pendingCall returns the run's own pending call of the id.
func pendingCall(s contract.RunSnapshot, id string) (contract.PendingCall, bool) {
	for _, p := range s.Pending {
		if p.Call.ID == id {
			return p, true
		}
	}
	return contract.PendingCall{}, false
}

// sameInput reports whether the input a client holds for a call is the
// call's arguments, as JSON values; an answer with no input, or input
// that is not JSON, does not tell.
func sameInput(input json.RawMessage, args string) bool {
	var held, want any
	if len(input) == 0 || json.Unmarshal(input, &held) != nil || held == nil {
		return true
	}
	if strings.TrimSpace(args) == "" {
		args = "{}"
	}
	if json.Unmarshal([]byte(args), &want) != nil {
		return true
	}
	return reflect.DeepEqual(held, want)
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
