package wire

import (
	"context"
	"iter"
	"net/http"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/batonrt/baton/contract"
	"github.com/batonrt/baton/dispatch"
	"github.com/batonrt/baton/turn"
)

// siblings: the parent delegates to an asker (question q1) and to a
// cleaner (approval d2) at once.
type siblings struct{}

func (siblings) Stream(_ context.Context, req contract.ModelRequest) iter.Seq2[turn.Chunk, error] {
	has := func(name string) bool {
		return slices.ContainsFunc(req.Tools, func(d contract.ToolDescriptor) bool { return d.Name == name })
	}
	last, _ := req.History.Last()
	done := len(last.Results()) > 0
	call := func(i int, id, name, args string) []turn.Chunk {
		return []turn.Chunk{{Kind: turn.ChunkToolCallStart, Index: i, CallID: id, Name: name}, {Kind: turn.ChunkToolCallArgs, Index: i, Text: args}, {Kind: turn.ChunkToolCallEnd, Index: i}}
	}
	var out []turn.Chunk
	switch {
	case done && has("delegate_asker"):
		out = []turn.Chunk{{Kind: turn.ChunkText, Text: "Done."}, {Kind: turn.ChunkStop, Stop: contract.StopEndTurn}}
	case has("delegate_asker"):
		out = append(append(call(0, "call_a", "delegate_asker", `{"task":"ask"}`), call(1, "call_b", "delegate_cleaner", `{"task":"clean"}`)...), turn.Chunk{Kind: turn.ChunkStop, Stop: contract.StopToolUse})
	case done && has("ask_human"):
		out = []turn.Chunk{{Kind: turn.ChunkText, Text: "The city is Bergen."}, {Kind: turn.ChunkStop, Stop: contract.StopEndTurn}}
	case has("ask_human"):
		out = append(call(0, "q1", "ask_human", `{"question":"Which city?"}`), turn.Chunk{Kind: turn.ChunkStop, Stop: contract.StopToolUse})
	case done:
		out = []turn.Chunk{{Kind: turn.ChunkText, Text: "Cleaned."}, {Kind: turn.ChunkStop, Stop: contract.StopEndTurn}}
	default:
		out = append(call(0, "d2", "delete_file", `{"path":"dist"}`), turn.Chunk{Kind: turn.ChunkStop, Stop: contract.StopToolUse})
	}
	return func(yield func(turn.Chunk, error) bool) {
		for _, c := range out {
			if !yield(c, nil) {
				return
			}
		}
	}
}

// TestAnAnsweredDelegateGoesOnToItsEndBeforeTheNextAsk: the run
// delegates to an asker (question q1) and a cleaner (approval d2) at
// once. The client answers q1 while d2 still waits: the asker then
// answers and its delegate call call_a has its result, after which the
// run waits on nothing but d2. The answer's stream stopped at d2 as soon
// as q1's own result came, so the asker's reply and call_a's result came
// after the stream's end and were in no stream: the next stream starts
// after them.
func TestAnAnsweredDelegateGoesOnToItsEndBeforeTheNextAsk(t *testing.T) {
	cfg := contract.AgentConfig{Model: "m", Delegates: []contract.Delegate{
		{Name: "asker", Config: contract.AgentConfig{Model: "m", Tools: []contract.ToolDescriptor{{Name: "ask_human"}}}},
		{Name: "cleaner", Config: contract.AgentConfig{Model: "m", Tools: []contract.ToolDescriptor{{Name: "delete_file"}}}},
	}}
	s := startFlowServer(t, t.TempDir(), ProtocolAGUI, cfg, siblings{}, nil, deleteTool(), dispatch.AskHuman(""))
	user := map[string]any{"id": "u1", "role": "user", "content": "go"}
	if code, b := post(t, s.srv.URL, aguiBody("x1", []map[string]any{user})); code != http.StatusOK {
		t.Fatalf("first stream: %d:\n%s", code, b)
	}
	// Both asks wait before the client answers one.
	s.h.mu.Lock()
	r := s.h.threads["x1"].r
	s.h.mu.Unlock()
	for deadline := time.Now().Add(5 * time.Second); ; time.Sleep(5 * time.Millisecond) {
		asks, _ := r.(SubflowAsker).SubflowAsks(context.Background())
		if len(asks) == 2 {
			break
		}
		if time.Now().After(deadline) {
			t.Fatalf("the delegates ask %d things, want q1 and d2", len(asks))
		}
	}
	code, b := post(t, s.srv.URL, aguiBody("x1", []map[string]any{user, {"id": "t1", "role": "tool", "toolCallId": "call_a/q1", "content": "Bergen"}}))
	if code != http.StatusOK || !strings.Contains(b, `"toolCallId":"call_b/d2"`) || !strings.HasSuffix(strings.TrimSpace(b), `}`) {
		t.Fatalf("answer to q1: %d, want call_b/d2 shown again:\n%s", code, b)
	}
	r0, d2 := strings.Index(b, `"type":"TOOL_CALL_RESULT"`), strings.LastIndex(b, `"toolCallId":"call_b/d2"`)
	if r0 < 0 || r0 > d2 || !strings.Contains(b, "The city is Bergen.") {
		t.Errorf("the answer's stream stops at d2 before the asker's reply and call_a's result, which no stream then shows:\n%s", b)
	}
	// The client sends its earlier tool message again with its decision
	// on d2: the asker's run has ended, so q1's answer is one of those
	// already taken, not a conflict.
	code, b = post(t, s.srv.URL, aguiBody("x1", []map[string]any{user,
		{"id": "t1", "role": "tool", "toolCallId": "call_a/q1", "content": "Bergen"},
		{"id": "t2", "role": "tool", "toolCallId": "call_b/d2", "content": "yes"}}))
	if code != http.StatusOK || !strings.Contains(b, "Done.") {
		t.Errorf("decision on d2 sent with q1's answer again: %d, want the run to go on to its end:\n%s", code, b)
	}
}
