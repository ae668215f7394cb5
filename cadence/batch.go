package cadence

import (
	"fmt"
	"strings"

	"github.com/batonrt/baton/compactor"
	"github.com/batonrt/baton/contract"
)

// startBatch answers a reply's tool calls: the loop guard may stop them,
// queued steering skips them (from revision 3 before the loop guard is
// asked), an abort waiting for the reply answers them as aborted; otherwise each is checked, put up for approval or queued,
// and as many as may run together are dispatched.
// blocks are the reply's, with n calls, each with its Call set
// (normaliseCalls).
func (t *transition) startBatch(blocks []contract.Block, n int) {
	pending := make([]contract.PendingCall, 0, n)
	for _, b := range blocks {
		if b.Kind == contract.BlockToolCall {
			pending = append(pending, contract.PendingCall{Call: *b.Call, State: contract.CallQueued})
		}
	}
	t.s.Pending, t.ownPending = pending, true
	rep := t.recordLoop(pending)
	switch {
	case t.s.Abort != "":
		t.fault(contract.KindAborted, abortMessage(t.s.AbortReason))
		return
	case rep.count >= t.rules.cfg.LoopGuard.Critical && !t.steeringFirst():
		t.fault(contract.KindLoop, fmt.Sprintf("loop guard: %s repeated %d times", rep.pattern(), rep.count))
		return
	case t.hasQueued(contract.InputSteer):
		t.skipUnstarted("skipped: steered")
		t.advance()
		return
	}
	for i := range pending {
		t.admit(&pending[i], i)
	}
	t.advance()
}

// admit decides what happens to one new call before anything runs.
// index is the call's position in its reply.
func (t *transition) admit(p *contract.PendingCall, index int) {
	tool, ok := t.lookupTool(p.Call.Name)
	if !ok {
		t.answer(p, t.unknownTool(p.Call.Name), true)
		return
	}
	p.Tool = tool
	if err := validArguments(p.Call.Arguments); err != nil {
		t.answer(p, fmt.Sprintf("error: malformed arguments for %s: %v; send a JSON object matching the tool's input schema", p.Call.Name, err), true)
		return
	}
	if tool.AsksHuman {
		t.askHuman(p)
		return
	}
	if tool.Delegate != "" && !t.admitDelegate(p) {
		return
	}
	if tool.NeedsApproval {
		t.requestApproval(p, index)
	}
}

func (t *transition) toolNames() string {
	var names []string
	for _, d := range t.toolList() {
		names = append(names, d.Name)
	}
	if len(names) == 0 {
		return "(none)"
	}
	return strings.Join(names, ", ")
}

// answer settles a call with a result the runtime wrote itself.
func (t *transition) answer(p *contract.PendingCall, content string, isError bool) {
	t.answerWith(p, contract.ToolOutcome{Content: content, IsError: isError})
}

// answerWith settles a call with an outcome; its event says whether the
// content was cut, which the history's result does not keep.
func (t *transition) answerWith(p *contract.PendingCall, o contract.ToolOutcome) {
	p.State = contract.CallDone
	p.Result = &contract.ToolResult{CallID: p.Call.ID, Name: p.Call.Name, Content: o.Content, IsError: o.IsError}
	if p.Subflow != "" {
		t.links = append(t.links, p.Subflow)
	}
	t.publish(contract.RunEvent{Kind: contract.EvToolResult, Call: &p.Call, Result: p.Result, Truncated: o.Truncated})
}

// skipUnstarted answers every call that has not started running; calls
// already handed to the conductor but not started are cancelled.
func (t *transition) skipUnstarted(content string) {
	var cancel []string
	pending := t.pending()
	for i := range pending {
		p := &pending[i]
		switch p.State {
		case contract.CallDispatched:
			cancel = append(cancel, p.Call.ID)
		case contract.CallQueued, contract.CallAwaitingApproval, contract.CallAwaitingHuman:
		default:
			continue
		}
		t.answer(p, content, true)
	}
	if len(cancel) > 0 {
		t.emit(&contract.CancelInFlight{CallIDs: cancel})
	}
}

// advance dispatches what may run now, then either waits or, when every
// call is answered, closes the batch and moves to the next boundary. The
// phase names the first kind of wait still open: tools, then approvals,
// then questions.
func (t *transition) advance() {
	t.schedule()
	running, approving, asking := 0, 0, 0
	for i := range t.s.Pending {
		switch t.s.Pending[i].State {
		case contract.CallDispatched, contract.CallStarted, contract.CallQueued:
			running++
		case contract.CallAwaitingApproval:
			approving++
		case contract.CallAwaitingHuman:
			asking++
		}
	}
	switch {
	case running > 0:
		t.s.Phase = contract.PhaseAwaitingTools
	case approving > 0:
		t.s.Phase = contract.PhaseAwaitingApproval
	case asking > 0:
		t.s.Phase = contract.PhaseAwaitingHuman
	default:
		t.closeBatch()
		t.boundary()
	}
}

// schedule dispatches queued calls in call order. A sequential call runs
// only when nothing else runs, and nothing starts beside it or after it
// until it is done. From revision 2 at most ToolConcurrency calls run at
// once, and the ones held back start, in order, as running ones settle.
func (t *transition) schedule() {
	if t.s.Abort != "" {
		return
	}
	limit := len(t.s.Pending)
	if t.schedules() {
		limit = t.rules.cfg.ToolConcurrency
	}
	running := 0
	// By index: a pending call is over 200 bytes, and a range would copy
	// each one.
	for i := range t.s.Pending {
		p := &t.s.Pending[i]
		if p.State == contract.CallDispatched || p.State == contract.CallStarted {
			if p.Tool.Sequential {
				return
			}
			running++
		}
	}
	for i := range t.s.Pending {
		p := &t.s.Pending[i] // not used once dispatch may have copied Pending
		if p.State != contract.CallQueued {
			continue
		}
		if running >= limit {
			return
		}
		if p.Tool.Sequential {
			if running == 0 {
				t.dispatch(i)
			}
			return
		}
		t.dispatch(i)
		running++
	}
}

func (t *transition) dispatch(i int) {
	if t.s.Pending[i].Tool.Delegate != "" && t.s.Pending[i].Subflow == "" {
		t.startDelegate(i)
		return
	}
	t.handOut(&t.pending()[i])
}

// handOut emits a call's RunTool; from revision 2 that step records the
// call as started and says so.
func (t *transition) handOut(p *contract.PendingCall) {
	p.State = t.handedOut()
	if p.State == contract.CallStarted && p.Tool.Delegate == "" {
		t.publish(contract.RunEvent{Kind: contract.EvToolStarted, Call: &p.Call})
	}
	t.emit(t.runEffect(p))
}

// handedOut is the state of a call whose RunTool is emitted: started, when
// the step that emits it is the start record (revision 2 on); otherwise
// dispatched, until a ToolStarted says it began.
func (t *transition) handedOut() contract.CallState {
	if t.schedules() {
		return contract.CallStarted
	}
	return contract.CallDispatched
}

// batchResult is what a closed batch answers for p: its result, or an
// error when none was recorded.
func batchResult(p *contract.PendingCall) contract.ToolResult {
	if p.Result != nil {
		return *p.Result
	}
	return missingResult(p)
}

func missingResult(p *contract.PendingCall) contract.ToolResult {
	return contract.ToolResult{CallID: p.Call.ID, Name: p.Call.Name, Content: "error: no result was recorded", IsError: true}
}

// resultBlock is the block of p's result. A result, once set, is never
// changed (events and snapshots point at it), so the block shares it.
func resultBlock(p *contract.PendingCall) contract.Block {
	if p.Result != nil {
		return contract.Block{Kind: contract.BlockToolResult, Result: p.Result}
	}
	return contract.ResultBlock(missingResult(p))
}

// closeBatch appends the tool turn, results in call order, and clears the
// batch.
func (t *transition) closeBatch() {
	if len(t.s.Pending) == 0 {
		return
	}
	t.noteProgress(t.s.Pending)
	blocks, tokens := t.batchResults()
	t.appendCounted(contract.Turn{Role: contract.RoleTool, Blocks: blocks}, tokens)
	t.s.Pending, t.ownPending = nil, false
}

// batchResults returns the blocks of the batch's results, in call order,
// and their tokens with a turn's overhead.
func (t *transition) batchResults() ([]contract.Block, int) {
	blocks := make([]contract.Block, 0, len(t.s.Pending))
	tokens := compactor.PerTurnOverhead
	for i := range t.s.Pending {
		p := &t.s.Pending[i]
		b := resultBlock(p)
		if p.Tokens > 0 {
			tokens += p.Tokens
		} else {
			tokens += t.estimator().Block(b)
		}
		blocks = append(blocks, b)
	}
	return blocks, tokens
}

// unknownTool is the result of a call to a tool the run does not offer.
// From revision 14 a call to one of the agent's delegates that its depth
// keeps from offering says so, so the model does the task itself rather
// than look for the tool under another name.
func (t *transition) unknownTool(name string) string {
	cfg := t.rules.cfg
	if t.s.Revision >= contract.RevisionSaysDepthCap && !cfg.OffersDelegates() {
		for _, d := range cfg.Delegates {
			if contract.DelegatePrefix+d.Name == name {
				return fmt.Sprintf("error: %q cannot be called here: this agent runs at the delegation depth limit (%d) and may not delegate further; do the task with the tools you have: %s", name, cfg.DelegationDepthLimit(), t.toolNames())
			}
		}
	}
	return fmt.Sprintf("error: unknown tool %q; available tools: %s", name, t.toolNames())
}
