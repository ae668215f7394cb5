package wire

import (
	"context"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"

	"github.com/batonrt/baton/conductor"
	"github.com/batonrt/baton/contract"
	"github.com/batonrt/baton/dispatch"
	"github.com/batonrt/baton/store"
	"github.com/batonrt/baton/turn"
)

// answeredFirst is a runner on which another client's answer to each
// question lands just before this one's: the race two clients run.
type answeredFirst struct{ agentRunner }

func (r answeredFirst) AnswerCall(ctx context.Context, path []string, ans conductor.CallAnswer) error {
	other := ans
	other.Answer = "another client's answer"
	if err := r.agentRunner.AnswerCall(ctx, path, other); err != nil {
		return err
	}
	return r.agentRunner.AnswerCall(ctx, path, ans)
}

// TestConflictingAnswerSaysWhatWasApplied: a request answers an approval
// and a question, and another client's answer to the question lands
// first. The 409 says the approval was applied, and the run went on with
// it; it said only that the question's answer was refused.
func TestConflictingAnswerSaysWhatWasApplied(t *testing.T) {
	for _, tc := range []struct {
		name     string
		messages []map[string]any
		want     string
	}{
		{"after an applied approval", []map[string]any{
			{"id": "t1", "role": "tool", "toolCallId": "call_1", "content": "yes"},
			{"id": "t2", "role": "tool", "toolCallId": "call_q", "content": "blue"},
		}, `the answers to "call_1" were applied`},
		{"alone", []map[string]any{
			{"id": "t2", "role": "tool", "toolCallId": "call_q", "content": "blue"},
		}, "no answer was applied"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			prov := &script{replies: []func(context.Context) ([]turn.Chunk, error){
				reply(
					turn.Chunk{Kind: turn.ChunkToolCallStart, CallID: "call_1", Name: "delete_file"},
					turn.Chunk{Kind: turn.ChunkToolCallArgs, Text: `{"path":"a"}`},
					turn.Chunk{Kind: turn.ChunkToolCallEnd},
					turn.Chunk{Kind: turn.ChunkToolCallStart, Index: 1, CallID: "call_q", Name: dispatch.AskHumanName},
					turn.Chunk{Kind: turn.ChunkToolCallArgs, Index: 1, Text: `{"question":"which colour?"}`},
					turn.Chunk{Kind: turn.ChunkToolCallEnd, Index: 1},
					turn.Chunk{Kind: turn.ChunkStop, Stop: contract.StopToolUse}),
				reply(turn.Chunk{Kind: turn.ChunkText, Text: "Done."}, turn.Chunk{Kind: turn.ChunkStop, Stop: contract.StopEndTurn}),
			}}
			del := &ranTool{}
			st := store.NewMemory()
			h := NewRunnerHandler(func(ctx context.Context, id string) (Runner, error) {
				box, err := dispatch.NewToolBox(del.tool(), dispatch.AskHuman(""))
				if err != nil {
					return nil, err
				}
				a, err := conductor.CreateAgent(contract.AgentConfig{Model: "scripted"}, conductor.Deps{Model: conductor.Model{Provider: prov}, Tools: conductor.Tools{Box: box}, People: conductor.People{Approver: conductor.ApproveLater}, Env: conductor.Env{Store: st, SessionID: id}})
				if err != nil {
					return nil, err
				}
				return answeredFirst{agentRunner{a}}, nil
			}, HandlerOptions{ClientAnswers: true, Protocol: ProtocolAGUI})
			srv := httptest.NewServer(h)
			defer func() { srv.Close(); h.Close() }()

			user := map[string]any{"id": "u1", "role": "user", "content": "clean up"}
			if code, b := post(t, srv.URL, aguiBody("x1", []map[string]any{user})); code != http.StatusOK || !strings.Contains(b, "call_q") {
				t.Fatalf("first stream: %d, want both calls asked:\n%s", code, b)
			}
			code, b := post(t, srv.URL, aguiBody("x1", append([]map[string]any{user}, tc.messages...)))
			if code != http.StatusConflict || !strings.Contains(b, tc.want) {
				t.Errorf("answers: %d %q, want %d saying %q", code, strings.TrimSpace(b), http.StatusConflict, tc.want)
			}
		})
	}
}
