package wire

import (
	"encoding/json"
	"net/http/httptest"
	"strings"
	"testing"

	"github.com/batonrt/baton/contract"
	"github.com/google/go-cmp/cmp"
)

func projectUI(events []contract.RunEvent) []UIChunk {
	p := NewUIMessageProjector("")
	var out []UIChunk
	for _, e := range events {
		out = append(out, p.Project(e)...)
	}
	return out
}

func strp(s string) *string { return &s }

func TestUIMessageProjector(t *testing.T) {
	start := UIChunk{Type: UIStart, MessageID: "run-1", MessageMetadata: UIRunMetadata{SessionID: "thread-1", RunID: "run-1"}}
	settled := UIChunk{Type: UIFinish, FinishReason: "stop", MessageMetadata: UIRunMetadata{SessionID: "thread-1", RunID: "run-1", Phase: "settled"}}
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
		want   []UIChunk
	}{
		{
			name:   "a rejected signal and a user turn project to nothing",
			events: []contract.RunEvent{ev(0, 0, contract.EvSignalRejected), with(ev(2, 0, contract.EvTurnCompleted), func(e *contract.RunEvent) { u := contract.UserText("hi"); e.Turn = &u }), ev(3, 0, contract.EvToolResult)},
		},
		{
			name:   "empty arguments are an empty object",
			events: []contract.RunEvent{ev(1, 0, contract.EvRunStarted), turnEv(2, call("c1", "now", ""))},
			want:   []UIChunk{start, {Type: UIStartStep}, {Type: UIToolInputAvailable, ToolCallID: "c1", ToolName: "now", Input: json.RawMessage("{}")}},
		},
		{
			name:   "malformed arguments are an input error carrying the raw text",
			events: []contract.RunEvent{ev(1, 0, contract.EvRunStarted), turnEv(2, call("c1", "f", `{"a":`))},
			want:   []UIChunk{start, {Type: UIStartStep}, {Type: UIToolInputError, ToolCallID: "c1", ToolName: "f", Input: `{"a":`, ErrorText: "arguments are not valid JSON"}},
		},
		{
			name: "a streamed call the turn dropped ends as an input error",
			events: []contract.RunEvent{
				ev(1, 0, contract.EvRunStarted),
				with(ev(1, 1, contract.EvToolCallDelta), func(e *contract.RunEvent) { e.Text = `{"x"` }),
				turnEv(2, call("c2", "g", `{}`)),
			},
			want: []UIChunk{
				start, {Type: UIStartStep},
				{Type: UIToolInputStart, ToolCallID: "call-1-0"},
				{Type: UIToolInputDelta, ToolCallID: "call-1-0", InputTextDelta: `{"x"`},
				{Type: UIToolInputAvailable, ToolCallID: "c2", ToolName: "g", Input: json.RawMessage("{}")},
				{Type: UIToolInputError, ToolCallID: "call-1-0", Input: `{"x"`, ErrorText: "the model's turn did not keep this call"},
			},
		},
		{
			name: "a result for a call the stream never showed brings its input first",
			events: []contract.RunEvent{
				ev(1, 0, contract.EvRunStarted),
				with(resultEv(4, resultA), func(e *contract.RunEvent) { e.Call = &callA }),
			},
			want: []UIChunk{
				start,
				{Type: UIToolInputAvailable, ToolCallID: "call_1", ToolName: "get_weather", Input: json.RawMessage(`{"city":"Paris"}`)},
				{Type: UIToolOutputAvail, ToolCallID: "call_1", Output: strp("18C, cloudy")},
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
			want: []UIChunk{
				start, {Type: UIStartStep},
				{Type: UIToolInputAvailable, ToolCallID: "a", ToolName: "f", Input: json.RawMessage("{}")},
				{Type: UIToolInputAvailable, ToolCallID: "b", ToolName: "f", Input: json.RawMessage("{}")},
				{Type: UIToolOutputAvail, ToolCallID: "a", Output: strp("")},
				{Type: UIToolOutputError, ToolCallID: "b", ErrorText: "tool failed"},
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
			want: []UIChunk{start, {Type: UIStartStep}, {Type: UITextStart, ID: "text-1"}, {Type: UITextEnd, ID: "text-1"}, {Type: UIFinishStep}, settled},
		},
		{
			name: "a fault with no error says the run faulted",
			events: []contract.RunEvent{
				ev(1, 0, contract.EvRunStarted),
				ev(2, 0, contract.EvRunFaulted),
			},
			want: []UIChunk{start, {Type: UIError, ErrorText: "run faulted"}, {Type: UIFinish, FinishReason: "error", MessageMetadata: UIRunMetadata{SessionID: "thread-1", RunID: "run-1", Phase: "faulted"}}},
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
			want: []UIChunk{
				start, {Type: UIStartStep}, {Type: UITextStart, ID: "text-1"}, {Type: UITextDelta, ID: "text-1", Delta: "one"}, {Type: UITextEnd, ID: "text-1"}, {Type: UIFinishStep}, settled,
				{Type: UIStart, MessageID: "run-2", MessageMetadata: UIRunMetadata{SessionID: "thread-1", RunID: "run-2"}},
				{Type: UIStartStep}, {Type: UITextStart, ID: "text-4"}, {Type: UITextDelta, ID: "text-4", Delta: "two"},
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
func TestUIMessageProjectorLiveAndReplayedAgree(t *testing.T) {
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
func foldUI(chunks []UIChunk) []string {
	var parts []string
	at := map[string]int{}
	for _, c := range chunks {
		switch c.Type {
		case UIStartStep:
			parts = append(parts, "step")
		case UITextStart, UIReasoningStart:
			at[c.ID] = len(parts)
			parts = append(parts, strings.TrimSuffix(c.Type, "-start")+" "+c.ID+": ")
		case UITextDelta, UIReasoningDelta:
			parts[at[c.ID]] += c.Delta
		case UIToolInputAvailable:
			in, _ := json.Marshal(c.Input)
			at[c.ToolCallID] = len(parts)
			parts = append(parts, "tool "+c.ToolCallID+" "+c.ToolName+" "+string(in))
		case UIToolOutputAvail:
			parts[at[c.ToolCallID]] += " -> " + *c.Output
		}
	}
	return parts
}

func TestUIStreamSkipsATurnJoinedMidway(t *testing.T) {
	rec := httptest.NewRecorder()
	s := newStreamer(rec, httptest.NewRequest("POST", "/", nil), nil, "thread-1", ProtocolAISDK)
	events := liveRun()
	// Joined after the first turn's second delta: that turn comes whole
	// from its completion, the next turn's deltas stream.
	for _, e := range append(events[:1:1], events[2:]...) {
		if err := s.emit(e); err != nil {
			t.Fatal(err)
		}
	}
	if err := s.done(); err != nil {
		t.Fatal(err)
	}
	if diff := cmp.Diff(UIMessageStreamVersion, rec.Header().Get(UIMessageStreamHeader)); diff != "" {
		t.Errorf("header mismatch (-want +got):\n%s", diff)
	}
	body := rec.Body.String()
	for _, want := range []string{`"delta":"need the tool"`, `"delta":"Let me check."`, `"delta":"It is 18C."`, "data: [DONE]\n\n"} {
		if !strings.Contains(body, want) {
			t.Errorf("no %s in\n%s", want, body)
		}
	}
	if strings.Contains(body, `"delta":"Let me "`) || strings.Contains(body, "tool-input-delta") {
		t.Errorf("deltas of the joined turn were written:\n%s", body)
	}
}
