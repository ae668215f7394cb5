package cadence

import (
	"encoding/json"
	"fmt"

	"github.com/batonrt/baton/contract"
)

// stepAwaitingModel handles a run waiting for the model's reply.
func stepAwaitingModel(t *transition) string {
	switch sig := t.sig.(type) {
	case contract.ModelReplied:
		return t.onReply(sig)
	case contract.ModelFailed:
		t.onModelFailed(sig)
		return ""
	case contract.Resumed:
		t.onResumeAwaitingModel()
		return ""
	}
	return t.onHostInput("awaiting the model")
}

// onResumeAwaitingModel sends the model call that was out again: it died
// with the process. It is the same call (the turn count does not move),
// but from revision 6 the steering queued while it was out goes in first,
// as it would have at the boundary the lost reply led to.
func (t *transition) onResumeAwaitingModel() {
	if t.abortOnResume() {
		return
	}
	if t.compactsOnResume() && t.steerBringsCompaction() {
		return
	}
	if t.steersOnResume() {
		t.deliverQueued(contract.InputSteer)
	}
	m := new(contract.InvokeModel)
	t.request(&m.Request)
	t.emit(m)
}

// onModelFailed faults the run with the model's failure, unless the
// context overflowed and compaction may make room. From revision 3 that
// is only when history changed since the last compaction attempt: an
// attempt on the same history would cut what could not be shrunk before,
// and each overflow would cost a model call and a summary until the turn
// cap ended the run as max_turns, hiding the cause. From revision 4 an
// overflow on the run's last allowed call faults it too: no model call
// could read the summary.
func (t *transition) onModelFailed(sig contract.ModelFailed) {
	t.s.RunUsage.ModelCalls++
	t.s.SessionUsage.ModelCalls++
	msg := string(sig.Failure)
	if sig.Message != "" {
		msg += ": " + sig.Message
	}
	if sig.Failure == contract.FailContextOverflow && !t.rules.cfg.Compaction.Disabled && t.s.Abort == "" && !t.atCap() {
		if t.s.Revision >= contract.RevisionSteeringFirst && t.s.CompactedAt > 0 && t.s.History.Len() <= t.s.CompactedAt {
			t.fault(contract.KindModel, msg+"; compaction cannot shrink the history")
			return
		}
		t.s.CompactedAt = 0
		if t.compactNow() {
			return
		}
	}
	t.fault(contract.KindModel, msg)
}

// completedTurn is what a turn_completed event points at.
type completedTurn struct {
	turn  contract.Turn
	usage contract.Usage
}

func (t *transition) onReply(sig contract.ModelReplied) string {
	// The reply and its usage are the turn_completed event's, which
	// subscribers may read after this step: one allocation, outside the
	// transition, which a host may use again (Scratch).
	ev := &completedTurn{turn: sig.Reply, usage: sig.Usage}
	reply := &ev.turn
	// The estimate rides in the reply only to reach history: the reply's
	// event carries none, as before estimates were carried.
	tokens := reply.Tokens
	reply.Tokens = 0
	if reply.Role != "" && reply.Role != contract.RoleAssistant {
		return "model_replied: reply role must be assistant, got " + quote(string(reply.Role))
	}
	reply.Role = contract.RoleAssistant
	reply.Mark = contract.MarkNone
	reply.Blocks = t.normaliseCalls(reply.Blocks)
	u := &ev.usage
	u.ModelCalls = 1
	u.ToolCalls, u.WallNanos = 0, 0
	t.s.RunUsage = t.s.RunUsage.Add(*u)
	t.s.SessionUsage = t.s.SessionUsage.Add(*u)
	t.appendCounted(*reply, tokens)
	t.publish(contract.RunEvent{Kind: contract.EvTurnCompleted, Turn: reply, Usage: u, Stop: sig.Stop})
	// The events point at the reply's calls, which history keeps as they
	// are, rather than at copies.
	calls := 0
	for _, b := range reply.Blocks {
		if b.Kind == contract.BlockToolCall {
			t.publish(contract.RunEvent{Kind: contract.EvToolCall, Call: b.Call, Index: calls})
			calls++
		}
	}
	if calls == 0 {
		if !t.retryOutput(sig) {
			t.afterFinalReply()
		}
		return ""
	}
	t.startBatch(reply.Blocks, calls)
	return ""
}

// normaliseCalls gives every tool call a non-empty id unique within the
// turn, derived from the turn number, so a careless provider cannot break
// call/result pairing. Blocks are copied only when a call changes.
func (t *transition) normaliseCalls(blocks []contract.Block) []contract.Block {
	seen := map[string]bool{}
	copied := false
	for i, b := range blocks {
		if b.Kind != contract.BlockToolCall {
			continue
		}
		if b.Call == nil {
			b.Call = &contract.ToolCall{}
		}
		id := b.Call.ID
		if id == "" || seen[id] {
			id = fmt.Sprintf("call_%d_%d", t.s.Turns, i)
			for n := 2; seen[id]; n++ {
				id = fmt.Sprintf("call_%d_%d_%d", t.s.Turns, i, n)
			}
		}
		seen[id] = true
		if id != b.Call.ID || blocks[i].Call == nil {
			if !copied {
				blocks = append([]contract.Block(nil), blocks...)
				copied = true
			}
			c := *b.Call
			c.ID = id
			b.Call = &c
			blocks[i] = b
		}
	}
	return blocks
}

// afterFinalReply handles a reply without tool calls: the run settles
// unless input is waiting to continue it.
func (t *transition) afterFinalReply() {
	switch {
	case t.s.Abort != "":
		t.fault(contract.KindAborted, abortMessage(t.s.AbortReason))
	case t.hasQueued(contract.InputSteer):
		t.boundary()
	case t.deliverQueued(contract.InputFollowUp):
		t.boundary()
	default:
		t.settle()
	}
}

// validArguments reports whether a call's arguments are a JSON object.
func validArguments(args string) error {
	if args == "" || plainObject(args) {
		return nil
	}
	var v any
	if err := json.Unmarshal([]byte(args), &v); err != nil {
		return err
	}
	if _, ok := v.(map[string]any); !ok {
		return fmt.Errorf("arguments must be a JSON object")
	}
	return nil
}

// plainObject reports, without decoding, that args is a JSON object that
// holds no number: such arguments always decode into a map. Numbers are
// left to the decoder, which rejects those beyond float64's range.
func plainObject(args string) bool {
	i := 0
	for i < len(args) && isJSONSpace(args[i]) {
		i++
	}
	if i == len(args) || args[i] != '{' || !contract.ValidJSON(args) {
		return false
	}
	return !outsideStrings(args[i:], func(c byte) bool { return c == '-' || c >= '0' && c <= '9' })
}
