package cadence

import (
	"github.com/batonrt/baton/contract"
)

// stepIdle handles a session with no run in flight: only a submit starts
// one.
func stepIdle(t *transition) string {
	sub, ok := t.sig.(contract.Submitted)
	if !ok {
		return "no run in flight: only submitted is accepted in phase " + string(t.s.Phase)
	}
	if reason := checkSubmit(sub); reason != "" {
		return reason
	}
	t.startRun(sub)
	return ""
}

func checkSubmit(sub contract.Submitted) string {
	if sub.RunID == "" {
		return "submitted: empty run id"
	}
	if len(sub.Input) == 0 {
		return "submitted: no input"
	}
	if reason := checkInput(sub.Input); reason != "" {
		return "submitted: " + reason
	}
	for _, turn := range sub.Retrieved {
		if reason := checkContext(turn); reason != "" {
			return "submitted: retrieved " + reason
		}
	}
	for _, d := range sub.Tools {
		if !contract.ValidToolName(d.Name) {
			return "submitted: invalid tool name " + quote(d.Name)
		}
	}
	return ""
}

// checkInput accepts host input: user turns with at least one block.
func checkInput(turns []contract.Turn) string {
	if len(turns) == 0 {
		return "no input"
	}
	for _, turn := range turns {
		if turn.Role != contract.RoleUser {
			return "input turns must have role user, got " + quote(string(turn.Role))
		}
		if len(turn.Blocks) == 0 {
			return "input turn has no blocks"
		}
	}
	return ""
}

// checkContext accepts a retrieved turn: some content, and no tool calls
// or results, which would break the pairing of calls and results.
func checkContext(turn contract.Turn) string {
	if len(turn.Blocks) == 0 {
		return "turn has no blocks"
	}
	for _, b := range turn.Blocks {
		if b.Kind == contract.BlockToolCall || b.Kind == contract.BlockToolResult {
			return "turn holds a " + string(b.Kind) + " block"
		}
	}
	return ""
}

func (t *transition) startRun(sub contract.Submitted) {
	s := &t.s
	s.RunID = sub.RunID
	s.Phase = contract.PhaseAwaitingModel
	s.Pending, s.Queued, s.Recent, s.Err = nil, nil, nil, nil
	s.Turns = 0
	s.RunUsage = contract.Usage{}
	s.Abort, s.AbortReason = "", ""
	s.RunTools = sub.Tools
	s.Warned = false
	s.RunStartedAt = sub.At
	s.RunFrom = s.History.Len()
	s.OutputRetries = 0
	s.CondensedInput = nil
	s.Progress = contract.Progress{}
	s.Instructions = sub.Instructions
	s.Revision = t.rules.cfg.Revision
	if t.allowsTree() {
		t.grant(sub.Allowed)
	}
	t.runStarted(&sub)
	for _, turn := range sub.Retrieved {
		turn.Role = contract.RoleUser
		turn.Mark = contract.MarkRetrieved
		t.appendInput(turn)
	}
	for _, turn := range sub.Input {
		t.appendInput(turn)
	}
	if sub.RetrievalError != "" {
		t.fault(contract.KindRetrieval, "retriever failed: "+sub.RetrievalError)
		return
	}
	t.boundary()
}

// runStarted publishes run_started. The client's ids name the run's
// input messages to a client that must be told which messages the
// session holds (wire/agui). Not inlined: the event would take room in
// the frame of startRun, under which the run's first model call is made.
//
//go:noinline
func (t *transition) runStarted(sub *contract.Submitted) {
	t.publish(contract.RunEvent{Kind: contract.EvRunStarted, Text: inputText(sub.Input), ClientIDs: clientIDs(sub.Input)})
}

func inputText(turns []contract.Turn) string {
	var s string
	for i, turn := range turns {
		if i > 0 {
			s += "\n"
		}
		s += turn.Text()
	}
	return s
}

// clientIDs are the client ids of turns, of those that have one: the
// events that report queued input name the client's messages by them.
func clientIDs(turns []contract.Turn) []string {
	var ids []string
	for _, turn := range turns {
		if turn.ClientID != "" {
			ids = append(ids, turn.ClientID)
		}
	}
	return ids
}

func quote(s string) string { return "\"" + s + "\"" }
