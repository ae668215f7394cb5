package cadencetest

import (
	"fmt"

	"github.com/batonrt/baton/compactor"
	"github.com/batonrt/baton/contract"
	"pgregory.net/rapid"
)

// At is the timestamp generated signals carry for a snapshot: later for
// every committed step, so run durations are deterministic.
func At(s contract.RunSnapshot) contract.Timestamp {
	return contract.Timestamp(s.Steps+1) * 1_000_000
}

// Signal is the smart generator: mostly a signal that fits the snapshot's
// phase, sometimes host input (steer, follow-up, abort, resume), and one
// time in eight a Hostile one.
func Signal(cfg contract.AgentConfig, s contract.RunSnapshot) *rapid.Generator[contract.Signal] {
	return rapid.Custom(func(t *rapid.T) contract.Signal {
		switch n := rapid.IntRange(0, 15).Draw(t, "mix"); {
		case n < 2:
			return Hostile(s).Draw(t, "hostile")
		case n < 4 && s.Phase.InFlight():
			return HostInput(s).Draw(t, "host_input")
		}
		return Fitting(cfg, s).Draw(t, "fitting")
	})
}

// Fitting draws a signal the rules accept in the snapshot's phase, as the
// conductor would feed it: a submit when no run is in flight, a reply or
// failure while the model is awaited, an answer for a pending call, a
// summary with the right cut while compacting.
func Fitting(cfg contract.AgentConfig, s contract.RunSnapshot) *rapid.Generator[contract.Signal] {
	at := At(s)
	return rapid.Custom(func(t *rapid.T) contract.Signal {
		switch s.Phase {
		case contract.PhaseAwaitingModel:
			if rapid.IntRange(0, 9).Draw(t, "fail") == 0 {
				kind := rapid.SampledFrom([]contract.FailureKind{contract.FailContextOverflow, contract.FailServer}).Draw(t, "failure")
				return contract.ModelFailed{Failure: kind, Message: "scripted failure", At: at}
			}
			return Reply(offered(cfg), at).Draw(t, "reply")
		case contract.PhaseAwaitingTools, contract.PhaseAwaitingApproval, contract.PhaseAwaitingHuman:
			if sig, ok := answer(t, s, at); ok {
				return sig
			}
			return HostInput(s).Draw(t, "host_input")
		case contract.PhaseCompacting:
			return compaction(t, cfg, s, at)
		}
		return Submit(s).Draw(t, "submit")
	})
}

// offered is the tools a model of cfg is offered: its own and its
// delegates', when its depth allows them.
func offered(cfg contract.AgentConfig) []contract.ToolDescriptor {
	tools := cfg.Tools
	if cfg.OffersDelegates() {
		for _, d := range cfg.Delegates {
			tools = append(append([]contract.ToolDescriptor(nil), tools...), d.Descriptor())
		}
	}
	return tools
}

// Submit draws a submit starting a new run on the session.
func Submit(s contract.RunSnapshot) *rapid.Generator[contract.Signal] {
	at := At(s)
	return rapid.Custom(func(t *rapid.T) contract.Signal {
		sub := contract.Submitted{
			RunID: fmt.Sprintf("run-%d", s.Steps+1),
			Input: []contract.Turn{contract.UserText(rapid.SampledFrom([]string{"hello", "use the tools", "again"}).Draw(t, "prompt"))},
			At:    at,
		}
		if rapid.IntRange(0, 5).Draw(t, "run_tools") == 0 {
			sub.Tools = []contract.ToolDescriptor{{Name: "echo", NeedsApproval: true}}
		}
		return sub
	})
}

// answer draws an answer for one pending call, fitting its state.
func answer(t *rapid.T, s contract.RunSnapshot, at contract.Timestamp) (contract.Signal, bool) {
	var open []contract.PendingCall
	for _, p := range s.Pending {
		if p.State != contract.CallDone && p.State != contract.CallQueued {
			open = append(open, p)
		}
	}
	if len(open) == 0 {
		return nil, false
	}
	p := rapid.SampledFrom(open).Draw(t, "pending")
	if p.Tool.Delegate != "" && rapid.IntRange(0, 2).Draw(t, "child_settles") > 0 {
		// What the child allowed may cover calls waiting on approval here.
		allowed := rapid.SampledFrom([][]string{nil, {"echo"}, {"echo", "other:key"}}).Draw(t, "child_allowed")
		return contract.DelegateSettled{CallID: p.Call.ID, Session: p.Subflow, Outcome: Outcome().Draw(t, "child_outcome"),
			Usage: contract.Usage{InputTokens: 7, OutputTokens: 3, ModelCalls: 1}, Allowed: allowed, At: at}, true
	}
	switch p.State {
	case contract.CallAwaitingApproval:
		scope := rapid.SampledFrom([]contract.ApprovalScope{contract.ScopeOnce, contract.ScopeSession}).Draw(t, "scope")
		return contract.ApprovalResolved{CallID: p.Call.ID, Approved: rapid.IntRange(0, 3).Draw(t, "approve") > 0, Scope: scope, At: at}, true
	case contract.CallAwaitingHuman:
		return contract.HumanAnswered{CallID: p.Call.ID, Answer: rapid.SampledFrom([]string{"yes", "a", ""}).Draw(t, "answer"), At: at}, true
	case contract.CallDispatched:
		if rapid.Bool().Draw(t, "start") {
			return contract.ToolStarted{CallID: p.Call.ID, At: at}, true
		}
	}
	// Now and then hooks rewrote the arguments the call ran with.
	args := rapid.SampledFrom([]string{"", "", "", `{"rewritten":true}`}).Draw(t, "rewritten_arguments")
	return contract.ToolSettled{CallID: p.Call.ID, Outcome: Outcome().Draw(t, "outcome"), Arguments: args, At: at}, true
}

func compaction(t *rapid.T, cfg contract.AgentConfig, s contract.RunSnapshot, at contract.Timestamp) contract.Signal {
	keep := cfg.WithDefaults().Compaction.KeepRecent
	cut, _ := compactor.FindCutPoint(s.History.Turns(), keep)
	switch rapid.IntRange(0, 5).Draw(t, "compaction") {
	case 0:
		return contract.CompactionFailed{Reason: "scripted failure", Usage: summaryUsage(t), At: at}
	case 1:
		return contract.Resumed{At: at}
	}
	return contract.Compacted{Summary: rapid.SampledFrom([]string{"short summary", "s"}).Draw(t, "summary"), Cut: cut, Usage: summaryUsage(t), At: at}
}

// summaryUsage draws what a summary call used: often nothing, as every
// session recorded before it was carried.
func summaryUsage(t *rapid.T) contract.Usage {
	return contract.Usage{
		InputTokens:  rapid.SampledFrom([]int64{0, 0, 120}).Draw(t, "summary input tokens"),
		OutputTokens: rapid.SampledFrom([]int64{0, 0, 30}).Draw(t, "summary output tokens"),
	}
}

// HostInput draws what a host may send while a run is in flight: a
// steer, a follow-up, an abort in any mode, or a resume after a restart.
// Steering and follow-up texts name the step, so each is unique.
func HostInput(s contract.RunSnapshot) *rapid.Generator[contract.Signal] {
	at := At(s)
	return rapid.Custom(func(t *rapid.T) contract.Signal {
		switch rapid.IntRange(0, 6).Draw(t, "host") {
		case 0, 1:
			return contract.Steered{Input: []contract.Turn{contract.UserText(fmt.Sprintf("steer %d", s.Steps+1))}, At: at}
		case 2, 3:
			return contract.FollowUpQueued{Input: []contract.Turn{contract.UserText(fmt.Sprintf("follow-up %d", s.Steps+1))}, At: at}
		case 4, 5:
			mode := rapid.SampledFrom([]contract.AbortMode{contract.AbortNow, contract.AbortAfterReply, contract.AbortAfterTools}).Draw(t, "mode")
			return contract.AbortRequested{Mode: mode, Reason: "scripted", At: at}
		}
		return contract.Resumed{At: at}
	})
}

// Hostile draws any kind of signal with fields chosen to be wrong as
// often as right: results for unknown call ids, duplicate results for
// calls already answered, signals for another phase, empty run ids,
// input with the wrong role, replies with nil calls, unknown abort modes,
// delegates settling calls that are not theirs or for another child
// session, resumes naming a revision no run can move to, retrieved turns
// holding calls or results, failed retrievals, replies with counts below
// zero or an output verdict, results with arguments rewritten into
// anything.
func Hostile(s contract.RunSnapshot) *rapid.Generator[contract.Signal] {
	at := At(s)
	ids := []string{"", "nope"}
	sessions := []string{"", "nope"}
	for _, p := range s.Pending {
		ids = append(ids, p.Call.ID)
		if p.Subflow != "" {
			sessions = append(sessions, p.Subflow)
		}
	}
	turns := rapid.Custom(func(t *rapid.T) []contract.Turn {
		switch rapid.IntRange(0, 3).Draw(t, "input") {
		case 0:
			return nil
		case 1:
			return []contract.Turn{{Role: contract.RoleAssistant, Blocks: []contract.Block{contract.TextBlock("x")}}}
		case 2:
			return []contract.Turn{{Role: contract.RoleUser}}
		}
		return []contract.Turn{contract.UserText(fmt.Sprintf("hostile %d", s.Steps+1))}
	})
	// What a retriever might return: nothing, context, or turns that
	// would break the pairing of calls and results.
	retrieved := rapid.SampledFrom([][]contract.Turn{
		nil,
		{contract.UserText("context")},
		{{Role: contract.RoleAssistant, Blocks: []contract.Block{contract.CallBlock(contract.ToolCall{ID: "r1", Name: "echo"})}}},
		{{Role: contract.RoleUser, Blocks: []contract.Block{{Kind: contract.BlockToolResult}}}},
		{{Role: contract.RoleUser}},
	})
	return rapid.Custom(func(t *rapid.T) contract.Signal {
		id := rapid.SampledFrom(ids).Draw(t, "call_id")
		switch kind := rapid.SampledFrom(contract.SignalKinds).Draw(t, "kind"); kind {
		case contract.SigSubmitted:
			return contract.Submitted{RunID: rapid.SampledFrom([]string{"", "r"}).Draw(t, "run_id"), Input: turns.Draw(t, "turns"),
				Retrieved:      retrieved.Draw(t, "retrieved"),
				RetrievalError: rapid.SampledFrom([]string{"", "", "retriever down"}).Draw(t, "retrieval_error"),
				Tools:          []contract.ToolDescriptor{{Name: rapid.SampledFrom([]string{"ok", "bad name"}).Draw(t, "tool_name")}}, At: at}
		case contract.SigSteered:
			return contract.Steered{Input: turns.Draw(t, "turns"), At: at}
		case contract.SigFollowUpQueued:
			return contract.FollowUpQueued{Input: turns.Draw(t, "turns"), At: at}
		case contract.SigModelReplied:
			role := rapid.SampledFrom([]contract.Role{"", contract.RoleAssistant, contract.RoleUser}).Draw(t, "role")
			blocks := []contract.Block{{Kind: contract.BlockToolCall}, contract.CallBlock(contract.ToolCall{ID: id, Name: "echo", Arguments: "{}"})}
			// A count below zero is no count: the rules make their own.
			tokens := rapid.SampledFrom([]int{0, -3, 7}).Draw(t, "tokens")
			return contract.ModelReplied{Reply: contract.Turn{Role: role, Blocks: blocks[:rapid.IntRange(0, 2).Draw(t, "blocks")], Tokens: tokens},
				OutputError: rapid.SampledFrom([]string{"", "not json"}).Draw(t, "output_error"), At: at}
		case contract.SigModelFailed:
			return contract.ModelFailed{Failure: contract.FailOther, At: at}
		case contract.SigToolStarted:
			return contract.ToolStarted{CallID: id, At: at}
		case contract.SigToolSettled:
			// Hooks may have rewritten the arguments into anything.
			args := rapid.SampledFrom([]string{"", "[", `{"x":1}`}).Draw(t, "arguments")
			return contract.ToolSettled{CallID: id, Outcome: Outcome().Draw(t, "outcome"), Arguments: args, At: at}
		case contract.SigApprovalResolved:
			return contract.ApprovalResolved{CallID: id, Approved: rapid.Bool().Draw(t, "approved"), Scope: "forever", At: at}
		case contract.SigHumanAnswered:
			return contract.HumanAnswered{CallID: id, Answer: "hostile", At: at}
		case contract.SigCompacted:
			return contract.Compacted{Summary: "x", Cut: rapid.IntRange(-1, 5).Draw(t, "cut"), At: at}
		case contract.SigCompactionFailed:
			return contract.CompactionFailed{At: at}
		case contract.SigAbortRequested:
			return contract.AbortRequested{Mode: rapid.SampledFrom([]contract.AbortMode{"", "later", contract.AbortNow}).Draw(t, "mode"), At: at}
		case contract.SigAllowanceShared:
			keys := rapid.SampledFrom([][]string{nil, {""}, {ApprovalTool}, {ApprovalTool, "echo"}, {"other:key", ApprovalTool}}).Draw(t, "keys")
			return contract.AllowanceShared{Keys: keys, At: at}
		case contract.SigDelegateSettled:
			session := rapid.SampledFrom(sessions).Draw(t, "session")
			allowed := rapid.SampledFrom([][]string{nil, {""}, {ApprovalTool}, {"other:key"}}).Draw(t, "allowed")
			return contract.DelegateSettled{CallID: id, Session: session, Outcome: Outcome().Draw(t, "outcome"), Allowed: allowed, At: at}
		case contract.SigResumed:
			// A revision the run cannot move to: older than any, or newer
			// than these rules know.
			rev := rapid.SampledFrom([]int{0, -1, contract.CurrentRevision + 1}).Draw(t, "revision")
			return contract.Resumed{Revision: rev, At: at}
		case contract.SigToolsChanged:
			names := rapid.SliceOfN(rapid.SampledFrom([]string{"echo", "fresh", "bad name", ""}), 0, 3).Draw(t, "tool_names")
			changed := contract.ToolsChanged{Tools: []contract.ToolDescriptor{}, At: at}
			for _, n := range names {
				changed.Tools = append(changed.Tools, contract.ToolDescriptor{Name: n})
			}
			return changed
		}
		return contract.Resumed{At: at}
	})
}
