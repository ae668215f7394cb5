package wiretest

import "github.com/batonrt/baton/contract"

const ms = contract.Timestamp(1e6)

// AssistantTurn is an assistant turn of blocks.
func AssistantTurn(blocks ...contract.Block) *contract.Turn {
	return &contract.Turn{Role: contract.RoleAssistant, Blocks: blocks}
}

// Fixture values of the live run.
var (
	CallA   = contract.ToolCall{ID: "call_1", Name: "get_weather", Arguments: `{"city":"Paris"}`}
	ResultA = contract.ToolResult{CallID: "call_1", Name: "get_weather", Content: "18C, cloudy"}
	Usage   = contract.Usage{InputTokens: 30, OutputTokens: 8, ModelCalls: 2, ToolCalls: 1}
)

// Ev is an event of session thread-1, run run-1, timed by its position.
func Ev(seq uint64, delta uint32, kind contract.EventKind) contract.RunEvent {
	return contract.RunEvent{Seq: seq, Delta: delta, SessionID: "thread-1", RunID: "run-1", At: contract.Timestamp(seq*1000+uint64(delta)) * ms, Kind: kind}
}

// With returns e changed by f.
func With(e contract.RunEvent, f func(*contract.RunEvent)) contract.RunEvent { f(&e); return e }

// LiveRun is a run with a tool call, as subscribers see it: deltas and
// committed events interleaved.
func LiveRun() []contract.RunEvent {
	call := &contract.ToolCall{ID: "call_1", Name: "get_weather"}
	return []contract.RunEvent{
		With(Ev(1, 0, contract.EvRunStarted), func(e *contract.RunEvent) { e.Text = "weather in Paris?" }),
		With(Ev(1, 1, contract.EvThinkingDelta), func(e *contract.RunEvent) { e.Text = "need the tool" }),
		With(Ev(1, 2, contract.EvTextDelta), func(e *contract.RunEvent) { e.Text = "Let me " }),
		With(Ev(1, 3, contract.EvTextDelta), func(e *contract.RunEvent) { e.Text = "check." }),
		With(Ev(1, 4, contract.EvToolCallDelta), func(e *contract.RunEvent) { e.Call = call }),
		With(Ev(1, 5, contract.EvToolCallDelta), func(e *contract.RunEvent) { e.Call = call; e.Text = `{"city":` }),
		With(Ev(1, 6, contract.EvToolCallDelta), func(e *contract.RunEvent) { e.Call = call; e.Text = `"Paris"}` }),
		With(Ev(2, 0, contract.EvTurnCompleted), func(e *contract.RunEvent) {
			e.Turn = AssistantTurn(contract.Block{Kind: contract.BlockThinking, Text: "need the tool"}, contract.TextBlock("Let me check."), contract.CallBlock(CallA))
			e.Usage = &contract.Usage{InputTokens: 10, OutputTokens: 5, ModelCalls: 1}
		}),
		With(Ev(3, 0, contract.EvToolCall), func(e *contract.RunEvent) { e.Call = &CallA }),
		With(Ev(4, 0, contract.EvToolStarted), func(e *contract.RunEvent) { e.Call = &CallA }),
		With(Ev(5, 0, contract.EvToolResult), func(e *contract.RunEvent) { e.Call = &CallA; e.Result = &ResultA }),
		With(Ev(5, 1, contract.EvTextDelta), func(e *contract.RunEvent) { e.Text = "It is 18C." }),
		With(Ev(6, 0, contract.EvTurnCompleted), func(e *contract.RunEvent) {
			e.Turn = AssistantTurn(contract.TextBlock("It is 18C."))
			e.Usage = &contract.Usage{InputTokens: 20, OutputTokens: 3, ModelCalls: 1}
		}),
		With(Ev(7, 0, contract.EvRunSettled), func(e *contract.RunEvent) { e.Usage = &Usage }),
	}
}

// CommittedOnly keeps the committed events: what a re-projection from the
// store sees.
func CommittedOnly(events []contract.RunEvent) []contract.RunEvent {
	var out []contract.RunEvent
	for _, e := range events {
		if e.Delta == 0 {
			out = append(out, e)
		}
	}
	return out
}

// DroppedInputRun is a run aborted while a steer and a follow-up were
// still queued: each is reported dropped before the run's end, the steer
// with the id of the client's message it held.
func DroppedInputRun() []contract.RunEvent {
	return []contract.RunEvent{
		Ev(1, 0, contract.EvRunStarted),
		With(Ev(2, 0, contract.EvInputDropped), func(e *contract.RunEvent) {
			e.Text = "use celsius"
			e.Input = contract.InputSteer
			e.ClientIDs = []string{"msg-2"}
		}),
		With(Ev(3, 0, contract.EvInputDropped), func(e *contract.RunEvent) { e.Text = "and tomorrow?"; e.Input = contract.InputFollowUp }),
		With(Ev(4, 0, contract.EvRunFaulted), func(e *contract.RunEvent) {
			e.Err = &contract.RunError{Kind: contract.KindAborted, Message: "run aborted"}
		}),
	}
}

// DelegatedRun is a run whose model hands a task to a delegate: the
// child's events, numbered in its own run and marked with the subflow
// path, come between the parent's subflow_started and subflow_completed.
func DelegatedRun() []contract.RunEvent {
	call := contract.ToolCall{ID: "call_1", Name: "delegate_researcher", Arguments: `{"task":"weather in Paris"}`}
	inner := contract.ToolCall{ID: "call_1", Name: "get_weather", Arguments: `{"city":"Paris"}`}
	child := func(seq uint64, delta uint32, kind contract.EventKind, f func(*contract.RunEvent)) contract.RunEvent {
		e := Ev(seq, delta, kind)
		e.SessionID, e.RunID, e.Subflow = "thread-1/2.0", "run-2", []string{"call_1"}
		e.At = contract.Timestamp(2000+seq*10+uint64(delta)) * ms
		f(&e)
		return e
	}
	none := func(*contract.RunEvent) {}
	answer := contract.ToolResult{CallID: "call_1", Name: "delegate_researcher", Content: "18C, cloudy"}
	return []contract.RunEvent{
		With(Ev(1, 0, contract.EvRunStarted), func(e *contract.RunEvent) { e.Text = "weather in Paris?" }),
		With(Ev(2, 0, contract.EvTurnCompleted), func(e *contract.RunEvent) {
			e.Turn = AssistantTurn(contract.CallBlock(call))
			e.Usage = &contract.Usage{InputTokens: 10, OutputTokens: 5, ModelCalls: 1}
		}),
		With(Ev(3, 0, contract.EvToolCall), func(e *contract.RunEvent) { e.Call = &call }),
		With(Ev(4, 0, contract.EvSubflowStarted), func(e *contract.RunEvent) { e.Call = &call; e.Text = "thread-1/2.0" }),
		child(1, 0, contract.EvRunStarted, func(e *contract.RunEvent) { e.Text = "weather in Paris" }),
		child(2, 0, contract.EvTurnCompleted, func(e *contract.RunEvent) { e.Turn = AssistantTurn(contract.CallBlock(inner)) }),
		child(3, 0, contract.EvToolCall, func(e *contract.RunEvent) { e.Call = &inner }),
		child(4, 0, contract.EvToolResult, func(e *contract.RunEvent) { e.Call = &inner; e.Result = &ResultA }),
		child(4, 1, contract.EvTextDelta, func(e *contract.RunEvent) { e.Text = "18C, cloudy" }),
		child(5, 0, contract.EvTurnCompleted, func(e *contract.RunEvent) { e.Turn = AssistantTurn(contract.TextBlock("18C, cloudy")) }),
		child(6, 0, contract.EvRunSettled, none),
		With(Ev(5, 0, contract.EvSubflowCompleted), func(e *contract.RunEvent) { e.Call = &call; e.Text = "thread-1/2.0" }),
		With(Ev(6, 0, contract.EvToolResult), func(e *contract.RunEvent) { e.Call = &call; e.Result = &answer }),
		With(Ev(7, 0, contract.EvTurnCompleted), func(e *contract.RunEvent) {
			e.Turn = AssistantTurn(contract.TextBlock("It is 18C."))
			e.Usage = &contract.Usage{InputTokens: 20, OutputTokens: 3, ModelCalls: 1}
		}),
		With(Ev(8, 0, contract.EvRunSettled), func(e *contract.RunEvent) { e.Usage = &Usage }),
	}
}

// StreamedTurn is a run whose one model call streams a prefix (cut
// bytes) of final in pieces of the sizes splits gives (the rest in one),
// then completes with final, and the run settles. When broken is not
// empty an attempt that streamed it is retried first. before holds the
// run's start and that attempt, after the rest.
func StreamedTurn(final string, splits []byte, cut int, broken string) (before, after []contract.RunEvent) {
	ev := func(seq uint64, delta uint32, kind contract.EventKind, text string) contract.RunEvent {
		return contract.RunEvent{Seq: seq, Delta: delta, SessionID: "t", RunID: "r", Kind: kind, Text: text}
	}
	before = append(before, ev(1, 0, contract.EvRunStarted, ""))
	var delta uint32
	if broken != "" {
		before = append(before, ev(1, 1, contract.EvTextDelta, broken), ev(1, 2, contract.EvModelRetry, "retry"))
		delta = 2
	}
	for rest := final[:min(max(cut, 0), len(final))]; rest != ""; {
		n := len(rest)
		if len(splits) > 0 {
			n = max(1, min(n, int(splits[0])))
			splits = splits[1:]
		}
		delta++
		after = append(after, ev(1, delta, contract.EvTextDelta, rest[:n]))
		rest = rest[n:]
	}
	done := ev(2, 0, contract.EvTurnCompleted, "")
	done.Turn = AssistantTurn(contract.TextBlock(final))
	return before, append(after, done, ev(3, 0, contract.EvRunSettled, ""))
}
