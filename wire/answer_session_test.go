package wire

import (
	"context"
	"net/http"
	"strings"
	"testing"

	"github.com/batonrt/baton/contract"
	"github.com/batonrt/baton/turn"
)

// TestApprovalsInOneRequestAfterAnAlways: a client decides two calls the
// run waits on in one request, "always" for the first, which allows the
// second's tool for the session and so decides it too, then "yes" for
// the second. The request is taken and the run goes on to its end; it
// was refused with 409 while the run went on unseen.
func TestApprovalsInOneRequestAfterAnAlways(t *testing.T) {
	del := func(i int, id, path string) []turn.Chunk {
		return []turn.Chunk{
			{Kind: turn.ChunkToolCallStart, Index: i, CallID: id, Name: "delete_file"},
			{Kind: turn.ChunkToolCallArgs, Index: i, Text: `{"path":"` + path + `"}`},
			{Kind: turn.ChunkToolCallEnd, Index: i},
		}
	}
	twoCalls := append(append(del(0, "call_1", "a"), del(1, "call_2", "b")...), turn.Chunk{Kind: turn.ChunkStop, Stop: contract.StopToolUse})
	prov := &script{replies: []func(context.Context) ([]turn.Chunk, error){
		reply(twoCalls...),
		reply(turn.Chunk{Kind: turn.ChunkText, Text: "Done."}, turn.Chunk{Kind: turn.ChunkStop, Stop: contract.StopEndTurn}),
	}}
	s := startFlowServer(t, t.TempDir(), ProtocolAGUI, contract.AgentConfig{}, prov, nil, deleteTool())
	user := map[string]any{"id": "u1", "role": "user", "content": "clean up"}
	if code, b := post(t, s.srv.URL, aguiBody("x1", []map[string]any{user})); code != http.StatusOK || !strings.Contains(b, "call_2") {
		t.Fatalf("first stream: %d, want both calls asked:\n%s", code, b)
	}
	code, b := post(t, s.srv.URL, aguiBody("x1", []map[string]any{user,
		{"id": "t1", "role": "tool", "toolCallId": "call_1", "content": "always"},
		{"id": "t2", "role": "tool", "toolCallId": "call_2", "content": "yes"},
	}))
	if code != http.StatusOK || !strings.Contains(b, "Done.") {
		t.Errorf("decisions: %d, want the run to go on to its end:\n%s", code, b)
	}
}
