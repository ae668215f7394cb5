package aisdk

import (
	"encoding/json"
	"strings"
	"testing"

	"github.com/batonrt/baton/contract"
	"github.com/google/go-cmp/cmp"
)

func projectUI(events []contract.RunEvent) []Chunk {
	p := NewProjector("")
	var out []Chunk
	for _, e := range events {
		out = append(out, p.Project(e)...)
	}
	return out
}

func strp(s string) *string { return &s }

func TestProjector(t *testing.T) {
	start := Chunk{Type: Start, MessageID: "run-1", MessageMetadata: Metadata{SessionID: "thread-1", RunID: "run-1"}}
	settled := Chunk{Type: Finish, FinishReason: "stop", MessageMetadata: Metadata{SessionID: "thread-1", RunID: "run-1", Phase: "settled"}}
	call := func(id, name, args string) contract.Block {
		return contract.CallBlock(contract.ToolCall{ID: id, Name: name, Arguments: args})
	}
	turnEv := func(seq uint64, blocks ...contract.Block) contract.RunEvent {
		return with(ev(seq, 0, contract.EvTurnCompleted), func(e *contract.RunEvent) { e.Turn = assistantTurn(blocks...) })
	}
	resultEv := func(seq uint64, r contract.ToolResult) contract.RunEvent {
		return with(ev(seq, 0, contract.EvToolResult), func(e *contract.RunEvent) { e.Result = &r })
	}
	tests := []struct {
		name   string
		events []contract.RunEvent
		want   []Chunk
	}{
		{
			name:   "a rejected signal and a user turn project to nothing",
			events: []contract.RunEvent{ev(0, 0, contract.EvSignalRejected), with(ev(2, 0, contract.EvTurnCompleted), func(e *contract.RunEvent) { u := contract.UserText("hi"); e.Turn = &u }), ev(3, 0, contract.EvToolResult)},
		},
		{
			name:   "empty arguments are an empty object",
			events: []contract.RunEvent{ev(1, 0, contract.EvRunStarted), turnEv(2, call("c1", "now", ""))},
			want:   []Chunk{start, {Type: StartStep}, {Type: ToolInputAvailable, ToolCallID: "c1", ToolName: "now", Input: json.RawMessage("{}")}},
		},
		{
			name:   "malformed arguments are an input error carrying the raw text",
			events: []contract.RunEvent{ev(1, 0, contract.EvRunStarted), turnEv(2, call("c1", "f", `{"a":`))},
			want:   []Chunk{start, {Type: StartStep}, {Type: ToolInputError, ToolCallID: "c1", ToolName: "f", Input: `{"a":`, ErrorText: "arguments are not valid JSON"}},
		},
		{
			name: "a streamed call the turn dropped ends as an input error",
			events: []contract.RunEvent{
				ev(1, 0, contract.EvRunStarted),
				with(ev(1, 1, contract.EvToolCallDelta), func(e *contract.RunEvent) { e.Text = `{"x"` }),
				turnEv(2, call("c2", "g", `{}`)),
			},
			want: []Chunk{
				start, {Type: StartStep},
				{Type: ToolInputStart, ToolCallID: "call-1-0"},
				{Type: ToolInputDelta, ToolCallID: "call-1-0", InputTextDelta: `{"x"`},
				{Type: ToolInputAvailable, ToolCallID: "c2", ToolName: "g", Input: json.RawMessage("{}")},
				{Type: ToolInputError, ToolCallID: "call-1-0", Input: `{"x"`, ErrorText: "the model's turn did not keep this call"},
			},
		},
		{
			name: "a result for a call the stream never showed brings its input first",
			events: []contract.RunEvent{
				ev(1, 0, contract.EvRunStarted),
				with(resultEv(4, resultA), func(e *contract.RunEvent) { e.Call = &callA }),
			},
			want: []Chunk{
				start,
				{Type: ToolInputAvailable, ToolCallID: "call_1", ToolName: "get_weather", Input: json.RawMessage(`{"city":"Paris"}`)},
				{Type: ToolOutputAvail, ToolCallID: "call_1", Output: strp("18C, cloudy")},
			},
		},
		{
			name: "an empty output is still sent and an empty error gets a text",
			events: []contract.RunEvent{
				ev(1, 0, contract.EvRunStarted),
				turnEv(2, call("a", "f", "{}"), call("b", "f", "{}")),
				resultEv(3, contract.ToolResult{CallID: "a", Name: "f"}),
				resultEv(4, contract.ToolResult{CallID: "b", Name: "f", IsError: true}),
			},
			want: []Chunk{
				start, {Type: StartStep},
				{Type: ToolInputAvailable, ToolCallID: "a", ToolName: "f", Input: json.RawMessage("{}")},
				{Type: ToolInputAvailable, ToolCallID: "b", ToolName: "f", Input: json.RawMessage("{}")},
				{Type: ToolOutputAvail, ToolCallID: "a", Output: strp("")},
				{Type: ToolOutputError, ToolCallID: "b", ErrorText: "tool failed"},
			},
		},
		{
			name: "an empty text delta opens the part without a delta",
			events: []contract.RunEvent{
				ev(1, 0, contract.EvRunStarted),
				ev(1, 1, contract.EvTextDelta),
				turnEv(2, contract.TextBlock("")),
				ev(3, 0, contract.EvRunSettled),
			},
			want: []Chunk{start, {Type: StartStep}, {Type: TextStart, ID: "text-1"}, {Type: TextEnd, ID: "text-1"}, {Type: FinishStep}, settled},
		},
		{
			name: "a run whose last reply was cut at max tokens finishes for its length",
			events: []contract.RunEvent{
				ev(1, 0, contract.EvRunStarted),
				with(turnEv(2, contract.TextBlock("cut sh")), func(e *contract.RunEvent) { e.Stop = contract.StopMaxTokens }),
				ev(3, 0, contract.EvRunSettled),
			},
			want: []Chunk{start, {Type: StartStep}, {Type: TextStart, ID: "text-1"}, {Type: TextDelta, ID: "text-1", Delta: "cut sh"}, {Type: TextEnd, ID: "text-1"}, {Type: FinishStep},
				{Type: Finish, FinishReason: "length", MessageMetadata: Metadata{SessionID: "thread-1", RunID: "run-1", Phase: "settled"}}},
		},
		{
			name: "a run whose last reply the model refused finishes for its content filter",
			events: []contract.RunEvent{
				ev(1, 0, contract.EvRunStarted),
				with(turnEv(2, contract.TextBlock("no")), func(e *contract.RunEvent) { e.Stop = contract.StopRefusal }),
				ev(3, 0, contract.EvRunSettled),
			},
			want: []Chunk{start, {Type: StartStep}, {Type: TextStart, ID: "text-1"}, {Type: TextDelta, ID: "text-1", Delta: "no"}, {Type: TextEnd, ID: "text-1"}, {Type: FinishStep},
				{Type: Finish, FinishReason: "content-filter", MessageMetadata: Metadata{SessionID: "thread-1", RunID: "run-1", Phase: "settled"}}},
		},
		{
			name: "the run's last reply says why it finished, not an earlier one",
			events: []contract.RunEvent{
				ev(1, 0, contract.EvRunStarted),
				with(turnEv(2, contract.TextBlock("cut sh")), func(e *contract.RunEvent) { e.Stop = contract.StopMaxTokens }),
				with(turnEv(3, contract.TextBlock("done")), func(e *contract.RunEvent) { e.Stop = contract.StopEndTurn }),
				ev(4, 0, contract.EvRunSettled),
			},
			want: []Chunk{start, {Type: StartStep}, {Type: TextStart, ID: "text-1"}, {Type: TextDelta, ID: "text-1", Delta: "cut sh"}, {Type: TextEnd, ID: "text-1"}, {Type: FinishStep},
				{Type: StartStep}, {Type: TextStart, ID: "text-2"}, {Type: TextDelta, ID: "text-2", Delta: "done"}, {Type: TextEnd, ID: "text-2"}, {Type: FinishStep}, settled},
		},
		{
			name: "a fault with no error says the run faulted",
			events: []contract.RunEvent{
				ev(1, 0, contract.EvRunStarted),
				ev(2, 0, contract.EvRunFaulted),
			},
			want: []Chunk{start, {Type: Error, ErrorText: "run faulted"}, {Type: Finish, FinishReason: "error", MessageMetadata: Metadata{SessionID: "thread-1", RunID: "run-1", Phase: "faulted"}}},
		},
		{
			name: "a second run is a new message with fresh steps",
			events: []contract.RunEvent{
				ev(1, 0, contract.EvRunStarted),
				turnEv(2, contract.TextBlock("one")),
				ev(3, 0, contract.EvRunSettled),
				with(ev(4, 0, contract.EvRunStarted), func(e *contract.RunEvent) { e.RunID = "run-2" }),
				with(ev(4, 1, contract.EvTextDelta), func(e *contract.RunEvent) { e.Text = "two" }),
			},
			want: []Chunk{
				start, {Type: StartStep}, {Type: TextStart, ID: "text-1"}, {Type: TextDelta, ID: "text-1", Delta: "one"}, {Type: TextEnd, ID: "text-1"}, {Type: FinishStep}, settled,
				{Type: Start, MessageID: "run-2", MessageMetadata: Metadata{SessionID: "thread-1", RunID: "run-2"}},
				{Type: StartStep}, {Type: TextStart, ID: "text-4"}, {Type: TextDelta, ID: "text-4", Delta: "two"},
			},
		},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			if diff := cmp.Diff(tt.want, projectUI(tt.events)); diff != "" {
				t.Errorf("mismatch (-want +got):\n%s", diff)
			}
		})
	}
}

// The live stream and the re-projection of the same run must rebuild the
// same message: same part ids, same text, same tool parts.
func TestProjectorLiveAndReplayedAgree(t *testing.T) {
	live, replayed := foldUI(projectUI(liveRun())), foldUI(projectUI(committedOnly(liveRun())))
	if diff := cmp.Diff(live, replayed); diff != "" {
		t.Errorf("mismatch (-want +got):\n%s", diff)
	}
	want := []string{"step", "reasoning reasoning-1: need the tool", "text text-1: Let me check.", `tool call_1 get_weather {"city":"Paris"} -> 18C, cloudy`, "step", "text text-5: It is 18C."}
	if diff := cmp.Diff(want, live); diff != "" {
		t.Errorf("mismatch (-want +got):\n%s", diff)
	}
}

// foldUI is a tiny reference of what a client rebuilds from chunks.
func foldUI(chunks []Chunk) []string {
	var parts []string
	at := map[string]int{}
	for _, c := range chunks {
		switch c.Type {
		case StartStep:
			parts = append(parts, "step")
		case TextStart, ReasoningStart:
			at[c.ID] = len(parts)
			parts = append(parts, strings.TrimSuffix(c.Type, "-start")+" "+c.ID+": ")
		case TextDelta, ReasoningDelta:
			parts[at[c.ID]] += c.Delta
		case ToolInputAvailable:
			in, _ := json.Marshal(c.Input)
			at[c.ToolCallID] = len(parts)
			parts = append(parts, "tool "+c.ToolCallID+" "+c.ToolName+" "+string(in))
		case ToolOutputAvail:
			parts[at[c.ToolCallID]] += " -> " + *c.Output
		}
	}
	return parts
}
