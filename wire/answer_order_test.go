package wire

import (
	"context"
	"encoding/json"
	"net/http"
	"slices"
	"strings"
	"sync"
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/batonrt/baton/contract"
	"github.com/batonrt/baton/dispatch"
	"github.com/batonrt/baton/turn"
)

// ranTool is delete_file, which needs approval and records the paths it
// ran on.
type ranTool struct {
	mu  sync.Mutex
	ran []string
}

func (r *ranTool) tool() dispatch.Tool {
	return dispatch.MustFunc("delete_file", "Delete a file.", func(_ context.Context, in struct {
		Path string `json:"path"`
	}) (string, error) {
		r.mu.Lock()
		defer r.mu.Unlock()
		r.ran = append(r.ran, in.Path)
		return "deleted " + in.Path, nil
	}, dispatch.NeedsApproval())
}

func (r *ranTool) paths() []string {
	r.mu.Lock()
	defer r.mu.Unlock()
	return slices.Sorted(slices.Values(r.ran))
}

// twoDeletes is a model that calls delete_file on a (call_1) and b
// (call_2) at once, then ends its turn.
func twoDeletes() *script {
	del := func(i int, id, path string) []turn.Chunk {
		return []turn.Chunk{
			{Kind: turn.ChunkToolCallStart, Index: i, CallID: id, Name: "delete_file"},
			{Kind: turn.ChunkToolCallArgs, Index: i, Text: `{"path":"` + path + `"}`},
			{Kind: turn.ChunkToolCallEnd, Index: i},
		}
	}
	calls := append(append(del(0, "call_1", "a"), del(1, "call_2", "b")...), turn.Chunk{Kind: turn.ChunkStop, Stop: contract.StopToolUse})
	return &script{replies: []func(context.Context) ([]turn.Chunk, error){
		reply(calls...),
		reply(turn.Chunk{Kind: turn.ChunkText, Text: "Done."}, turn.Chunk{Kind: turn.ChunkStop, Stop: contract.StopEndTurn}),
	}}
}

// decisionsBody is the request of a client of proto that answers
// call_1 and call_2 of thread x1 with the texts, in that order.
func decisionsBody(proto Protocol, first, second string) string {
	if proto == ProtocolAISDK {
		part := func(id, path, out string) map[string]any {
			return map[string]any{"type": "tool-delete_file", "toolCallId": id, "state": "output-available", "input": map[string]any{"path": path}, "output": out}
		}
		b, _ := json.Marshal(map[string]any{"id": "x1", "trigger": "submit-message", "messages": []any{
			map[string]any{"id": "u1", "role": "user", "parts": []any{map[string]any{"type": "text", "text": "clean up"}}},
			map[string]any{"id": "a1", "role": "assistant", "parts": []any{
				map[string]any{"type": "step-start"}, part("call_1", "a", first), part("call_2", "b", second),
			}},
		}})
		return string(b)
	}
	user := map[string]any{"id": "u1", "role": "user", "content": "clean up"}
	return aguiBody("x1", []map[string]any{user,
		{"id": "t1", "role": "tool", "toolCallId": "call_1", "content": first},
		{"id": "t2", "role": "tool", "toolCallId": "call_2", "content": second},
	})
}

// TestDenialInOneRequestWithAnAlways: a client decides two calls that
// share their approval key in one request, "always" for one and "no" for
// the other. The call the person denied never runs, whichever answer
// comes first: it used to run when the "always" came first, which
// allowed it for the session, and the denial after it was skipped as an
// answer to a call already decided.
func TestDenialInOneRequestWithAnAlways(t *testing.T) {
	for _, proto := range []Protocol{ProtocolAGUI, ProtocolAISDK} {
		for _, tc := range []struct {
			name          string
			first, second string
			want          []string
		}{
			{"always first", "always", "no", []string{"a"}},
			{"denial first", "no", "always", []string{"b"}},
			{"always as JSON", `{"approved":true,"scope":"session"}`, `{"approved":false}`, []string{"a"}},
		} {
			t.Run(string(proto)+"/"+tc.name, func(t *testing.T) {
				del := &ranTool{}
				s := startFlowServer(t, t.TempDir(), proto, contract.AgentConfig{}, twoDeletes(), nil, del.tool())
				first := aguiBody("x1", []map[string]any{{"id": "u1", "role": "user", "content": "clean up"}})
				if proto == ProtocolAISDK {
					first = chatBody("x1", "clean up")
				}
				if code, b := post(t, s.srv.URL, first); code != http.StatusOK || !strings.Contains(b, "call_2") {
					t.Fatalf("first stream: %d, want both calls asked:\n%s", code, b)
				}
				code, b := post(t, s.srv.URL, decisionsBody(proto, tc.first, tc.second))
				if code != http.StatusOK || !strings.Contains(b, "Done.") {
					t.Fatalf("decisions: %d, want the run to go on to its end:\n%s", code, b)
				}
				if diff := cmp.Diff(tc.want, del.paths()); diff != "" {
					t.Errorf("files deleted mismatch (-want +got):\n%s", diff)
				}
			})
		}
	}
}
