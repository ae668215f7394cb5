package cadence_test

import (
	"path/filepath"
	"testing"

	"github.com/batonrt/baton/contract"
)

// rejectedByDesign lists the phase x signal-kind cells the rules refuse
// whatever the signal holds. Every other cell must be reached, and
// accepted, by some golden script.
var rejectedByDesign = func() map[cell]string {
	m := map[cell]string{}
	noRun := []contract.Phase{contract.PhaseIdle, contract.PhaseSettled, contract.PhaseFaulted}
	for _, p := range noRun {
		for _, k := range contract.SignalKinds {
			if k != contract.SigSubmitted {
				m[cell{p, k}] = "no run in flight"
			}
		}
	}
	for _, p := range []contract.Phase{contract.PhaseAwaitingModel, contract.PhaseAwaitingTools, contract.PhaseAwaitingApproval, contract.PhaseAwaitingHuman, contract.PhaseCompacting} {
		m[cell{p, contract.SigSubmitted}] = "a run is in flight: input mid-run is a steer or a follow-up"
	}
	for _, k := range []contract.SignalKind{contract.SigToolStarted, contract.SigToolSettled, contract.SigApprovalResolved, contract.SigHumanAnswered, contract.SigCompacted, contract.SigCompactionFailed} {
		m[cell{contract.PhaseAwaitingModel, k}] = "only the model is awaited"
	}
	for _, p := range []contract.Phase{contract.PhaseAwaitingTools, contract.PhaseAwaitingApproval, contract.PhaseAwaitingHuman} {
		for _, k := range []contract.SignalKind{contract.SigModelReplied, contract.SigModelFailed, contract.SigCompacted, contract.SigCompactionFailed} {
			m[cell{p, k}] = "the model is not awaited while tools run"
		}
	}
	m[cell{contract.PhaseAwaitingApproval, contract.SigToolStarted}] = "nothing runs while every open call awaits approval"
	m[cell{contract.PhaseAwaitingApproval, contract.SigDelegateSettled}] = "nothing runs while every open call awaits approval"
	m[cell{contract.PhaseAwaitingModel, contract.SigDelegateSettled}] = "only the model is awaited"
	m[cell{contract.PhaseCompacting, contract.SigDelegateSettled}] = "only the summary is awaited"
	m[cell{contract.PhaseAwaitingApproval, contract.SigToolSettled}] = "nothing runs while every open call awaits approval"
	m[cell{contract.PhaseAwaitingHuman, contract.SigToolStarted}] = "nothing runs while every open call waits for a person"
	m[cell{contract.PhaseAwaitingHuman, contract.SigToolSettled}] = "nothing runs while every open call waits for a person"
	m[cell{contract.PhaseAwaitingHuman, contract.SigDelegateSettled}] = "nothing runs while every open call waits for a person"
	m[cell{contract.PhaseAwaitingHuman, contract.SigApprovalResolved}] = "no call awaits approval while every open call waits for a person"
	for _, k := range []contract.SignalKind{contract.SigModelReplied, contract.SigModelFailed, contract.SigToolStarted, contract.SigToolSettled, contract.SigApprovalResolved, contract.SigHumanAnswered} {
		m[cell{contract.PhaseCompacting, k}] = "only the summary is awaited"
	}
	return m
}()

// probe builds a signal of the kind aimed at the snapshot: call ids name
// its first pending call, so a rejection is by phase, not by a bad id.
func probe(kind contract.SignalKind, s contract.RunSnapshot) contract.Signal {
	id := "none"
	if len(s.Pending) > 0 {
		id = s.Pending[0].Call.ID
	}
	at := contract.Timestamp(1 << 40)
	in := []contract.Turn{contract.UserText("probe")}
	switch kind {
	case contract.SigSubmitted:
		return contract.Submitted{RunID: "probe", Input: in, At: at}
	case contract.SigSteered:
		return contract.Steered{Input: in, At: at}
	case contract.SigFollowUpQueued:
		return contract.FollowUpQueued{Input: in, At: at}
	case contract.SigModelReplied:
		return contract.ModelReplied{Reply: contract.Turn{Role: contract.RoleAssistant, Blocks: []contract.Block{contract.TextBlock("x")}}, At: at}
	case contract.SigModelFailed:
		return contract.ModelFailed{Failure: contract.FailServer, At: at}
	case contract.SigToolStarted:
		return contract.ToolStarted{CallID: id, At: at}
	case contract.SigToolSettled:
		return contract.ToolSettled{CallID: id, At: at}
	case contract.SigApprovalResolved:
		return contract.ApprovalResolved{CallID: id, Approved: true, At: at}
	case contract.SigHumanAnswered:
		return contract.HumanAnswered{CallID: id, Answer: "probe", At: at}
	case contract.SigCompacted:
		return contract.Compacted{Cut: 1, Summary: "x", At: at}
	case contract.SigCompactionFailed:
		return contract.CompactionFailed{At: at}
	case contract.SigDelegateSettled:
		sess := "none"
		if len(s.Pending) > 0 {
			sess = s.Pending[0].Subflow
		}
		return contract.DelegateSettled{CallID: id, Session: sess, At: at}
	case contract.SigAbortRequested:
		return contract.AbortRequested{Mode: contract.AbortNow, At: at}
	case contract.SigAllowanceShared:
		return contract.AllowanceShared{Keys: []string{"probe"}, At: at}
	case contract.SigToolsChanged:
		return contract.ToolsChanged{Tools: []contract.ToolDescriptor{{Name: "probe"}}, At: at}
	}
	return contract.Resumed{At: at}
}

// TestScriptCoverage fails on any phase x signal-kind cell that no golden
// script reaches with an accepted signal and that is not rejected by
// design; the rejected cells are checked to really be rejected, in every
// snapshot of that phase the scripts produced.
func TestScriptCoverage(t *testing.T) {
	cells := map[cell]bool{}
	samples := map[contract.Phase][]contract.RunSnapshot{}
	for _, path := range scriptFiles(t) {
		sc := newScript(t)
		sc.phases = map[contract.Phase]contract.RunSnapshot{}
		runFile(t, path, sc)
		for c, ok := range sc.cells {
			cells[c] = cells[c] || ok
		}
		for p, s := range sc.phases {
			samples[p] = append(samples[p], s)
		}
		_ = filepath.Base(path)
	}
	for _, p := range contract.Phases {
		if len(samples[p]) == 0 {
			t.Errorf("no script reaches phase %s", p)
		}
		for _, k := range contract.SignalKinds {
			c := cell{p, k}
			why, rejected := rejectedByDesign[c]
			switch {
			case rejected && cells[c]:
				t.Errorf("%s in %s is listed as rejected by design (%s) but a script had it accepted", k, p, why)
			case rejected:
				for _, s := range samples[p] {
					next, _, err := newScript(t).rules.Step(s, probe(k, s))
					if err == nil || next.Steps != s.Steps {
						t.Errorf("%s in %s is listed as rejected by design (%s) but was accepted", k, p, why)
					}
				}
			case !cells[c]:
				t.Errorf("no golden script feeds %s in phase %s, and it is not rejected by design", k, p)
			}
		}
	}
}
