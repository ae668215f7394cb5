package cadence

import (
	"encoding/json"
	"strings"

	"github.com/batonrt/baton/contract"
)

// offeredTools is the agent's tools followed by its delegates' tools, when
// its depth still allows delegation.
func offeredTools(cfg contract.AgentConfig) []contract.ToolDescriptor {
	if !cfg.OffersDelegates() {
		return cfg.Tools
	}
	out := append([]contract.ToolDescriptor(nil), cfg.Tools...)
	for _, d := range cfg.Delegates {
		out = append(out, d.Descriptor())
	}
	return out
}

// delegateTask returns the child's input for a delegate call's arguments:
// the task, then any other input the host declared, as JSON; or why there
// is none.
func delegateTask(args string) (string, string) {
	var in map[string]json.RawMessage
	var task string
	if err := json.Unmarshal([]byte(args), &in); err != nil || json.Unmarshal(in["task"], &task) != nil {
		return "", `the arguments must hold {"task": string}`
	}
	if task == "" {
		return "", "the task is empty"
	}
	delete(in, "task")
	if len(in) == 0 {
		return task, ""
	}
	extra, err := json.Marshal(in)
	if err != nil {
		return "", "the input is not JSON: " + err.Error()
	}
	return task + "\n\nInput: " + string(extra), ""
}

// runEffect is the effect that runs a dispatched call: a tool, or a child
// run for a delegate call.
func (t *transition) runEffect(p *contract.PendingCall) contract.Effect {
	if p.Tool.Delegate == "" {
		r := slot(t.runRoom, &t.nruns)
		r.Call, r.Tool = p.Call, p.Tool
		return r
	}
	return t.delegateEffect(p)
}

// delegateEffect is runEffect for a delegate call. Not inlined: the
// configurations it copies would take room in the frame of every step
// that starts a tool.
//
//go:noinline
func (t *transition) delegateEffect(p *contract.PendingCall) contract.Effect {
	d, _ := t.rules.cfg.DelegateNamed(p.Tool.Delegate)
	task, _ := delegateTask(p.Call.Arguments)
	e := &contract.StartDelegate{Call: p.Call, Delegate: d.Name, Task: task, Session: p.Subflow, Config: t.rules.cfg.ChildConfig(d)}
	if t.allowsTree() {
		e.Allowed = t.s.Allowed
	}
	return e
}

// admitDelegate checks a delegate call before it is queued; it answers the
// call with an error and returns false when the call cannot run.
func (t *transition) admitDelegate(p *contract.PendingCall) bool {
	if _, ok := t.rules.cfg.DelegateNamed(p.Tool.Delegate); !ok {
		t.answer(p, "error: "+p.Call.Name+" names no delegate of this agent", true)
		return false
	}
	if _, why := delegateTask(p.Call.Arguments); why != "" {
		t.answer(p, "error: malformed arguments for "+p.Call.Name+": "+why, true)
		return false
	}
	return true
}

// startDelegate hands a delegate call out for the first time: the child's
// session is named here, from this step and under the run's revision
// (contract.ChildSessionAt, by which the store's export finds a parent's
// children too), so it is the same on replay.
func (t *transition) startDelegate(i int) {
	p := &t.pending()[i]
	p.State = t.handedOut()
	p.Subflow = contract.ChildSessionAt(t.s.Revision, t.s.SessionID, t.s.Steps+1, i)
	t.publish(contract.RunEvent{Kind: contract.EvSubflowStarted, Call: &p.Call, Text: p.Subflow})
	t.emit(t.runEffect(p))
}

// childStep is the part of a child session's id its parent's rules
// decide, "/STEP.INDEX": the same whichever id the parent session has, so
// a fork, whose records were made under another id, still folds.
func childStep(session string) string {
	if i := strings.LastIndexByte(session, '/'); i >= 0 {
		return session[i:]
	}
	return session
}

// onDelegateSettled folds a child run's end into its delegate call: the
// child's usage rolls up, and its answer or error is the call's result.
func (t *transition) onDelegateSettled(sig contract.DelegateSettled) string {
	i := t.findPending(sig.CallID)
	if i < 0 {
		return "delegate_settled: no pending call " + quote(sig.CallID)
	}
	p := t.s.Pending[i]
	if p.State != contract.CallDispatched && p.State != contract.CallStarted {
		return "delegate_settled: call " + quote(sig.CallID) + " is " + string(p.State) + ", not running"
	}
	if p.Tool.Delegate == "" || childStep(p.Subflow) != childStep(sig.Session) {
		return "delegate_settled: call " + quote(sig.CallID) + " has no child session " + quote(sig.Session)
	}
	u := sig.Usage
	u.WallNanos = 0
	u.ToolCalls++
	t.s.RunUsage = t.s.RunUsage.Add(u)
	t.s.SessionUsage = t.s.SessionUsage.Add(u)
	pp := &t.pending()[i]
	// The recorded session is the one that ran: a forked session folds
	// its parent's records under another id.
	pp.Subflow = sig.Session
	kind := contract.EvSubflowCompleted
	if sig.Outcome.IsError {
		kind = contract.EvSubflowFailed
	}
	t.publish(contract.RunEvent{Kind: kind, Call: &pp.Call, Text: pp.Subflow, Usage: &sig.Usage})
	t.answerWith(pp, sig.Outcome)
	if t.allowsTree() {
		// What a person allowed in the child holds here too, and so for
		// the parent's own calls that wait on the same approval.
		t.allow(sig.Allowed)
	}
	t.advance()
	return ""
}
