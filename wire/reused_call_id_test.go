package wire

import (
	"context"
	"encoding/json"
	"net/http"
	"strings"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"

	"github.com/batonrt/baton/conductor"
	"github.com/batonrt/baton/contract"
	"github.com/batonrt/baton/dispatch"
	"github.com/batonrt/baton/store"
	"github.com/batonrt/baton/turn"
)

// underOneID is a model that numbers its calls call_0 in every reply:
// it calls the tool with each of args in turn, each under call_0, then
// ends its turn.
func underOneID(tool string, args ...string) *script {
	s := &script{}
	for _, a := range args {
		s.replies = append(s.replies, reply(
			turn.Chunk{Kind: turn.ChunkToolCallStart, CallID: "call_0", Name: tool},
			turn.Chunk{Kind: turn.ChunkToolCallArgs, Text: a},
			turn.Chunk{Kind: turn.ChunkToolCallEnd},
			turn.Chunk{Kind: turn.ChunkStop, Stop: contract.StopToolUse}))
	}
	s.replies = append(s.replies, reply(turn.Chunk{Kind: turn.ChunkText, Text: "Done."}, turn.Chunk{Kind: turn.ChunkStop, Stop: contract.StopEndTurn}))
	return s
}

// deletesUnderOneID deletes a, then b, each under call_0.
func deletesUnderOneID() *script {
	return underOneID("delete_file", `{"path":"a"}`, `{"path":"b"}`)
}

// TestAISDKAnswersTheNewestCallOfAnID: the AI SDK's Chat keeps a run's
// steps in one assistant message and posts all its parts with each
// answer, so when the model reuses a call id the message holds the
// earlier call's part (its output) before the part that waits. The
// approval the client gives is for the part that waits: it used to be
// read from the first part of the id, the earlier call's output, and
// refused as no decision.
func TestAISDKAnswersTheNewestCallOfAnID(t *testing.T) {
	del := &ranTool{}
	s := startFlowServer(t, t.TempDir(), ProtocolAISDK, contract.AgentConfig{}, deletesUnderOneID(), nil, del.tool())
	if code, b := post(t, s.srv.URL, chatBody("x1", "clean up")); code != http.StatusOK || !strings.Contains(b, "tool-approval-request") {
		t.Fatalf("first stream: %d, want the first call asked:\n%s", code, b)
	}
	part := func(path, state string, extra map[string]any) map[string]any {
		p := map[string]any{"type": "tool-delete_file", "toolCallId": "call_0", "state": state, "input": map[string]any{"path": path}}
		for k, v := range extra {
			p[k] = v
		}
		return p
	}
	approved := map[string]any{"approval": map[string]any{"id": "call_0", "approved": true}}
	body := func(parts ...any) string {
		b, _ := json.Marshal(map[string]any{"id": "x1", "trigger": "submit-message", "messages": []any{
			map[string]any{"id": "u1", "role": "user", "parts": []any{map[string]any{"type": "text", "text": "clean up"}}},
			map[string]any{"id": "a1", "role": "assistant", "parts": parts},
		}})
		return string(b)
	}
	step := map[string]any{"type": "step-start"}
	code, b := post(t, s.srv.URL, body(step, part("a", "approval-responded", approved)))
	if code != http.StatusOK || !strings.Contains(b, "deleted a") || !strings.Contains(b, "tool-approval-request") {
		t.Fatalf("first decision: %d, want a deleted and the second call asked:\n%s", code, b)
	}
	done := part("a", "output-available", map[string]any{"output": "deleted a", "approval": map[string]any{"id": "call_0", "approved": true}})
	code, b = post(t, s.srv.URL, body(step, done, step, part("b", "approval-responded", approved)))
	if code != http.StatusOK || !strings.Contains(b, "Done.") {
		t.Fatalf("second decision: %d, want the run to go on to its end:\n%s", code, b)
	}
	if diff := cmp.Diff([]string{"a", "b"}, del.paths()); diff != "" {
		t.Errorf("files deleted mismatch (-want +got):\n%s", diff)
	}
}

// TestAnswerReadAgainstAnEarlierTurnIsRefused: a client's answer is read
// against the run as the request found it, where call_0 of the first
// turn waited; another answer went in meanwhile and the run asked again
// under call_0 in its next turn. The answer is for the first call and is
// refused (409), not taken by the second, which still waits.
func TestAnswerReadAgainstAnEarlierTurnIsRefused(t *testing.T) {
	ctx := context.Background()
	for _, tc := range []struct {
		name  string
		tool  dispatch.Tool
		model *script
		give  func(a *conductor.Agent) error
	}{
		{"an approval", (&ranTool{}).tool(), deletesUnderOneID(), func(a *conductor.Agent) error {
			return a.Approve(ctx, "call_0", conductor.Decision{Approved: true})
		}},
		{"an answer", dispatch.AskHuman(""), asksUnderOneID(), func(a *conductor.Agent) error {
			return a.Answer(ctx, "call_0", "Oslo")
		}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			box, err := dispatch.NewToolBox(tc.tool)
			if err != nil {
				t.Fatal(err)
			}
			a, err := conductor.CreateAgent(contract.AgentConfig{Model: "scripted"}, conductor.Deps{Model: conductor.Model{Provider: tc.model}, Tools: conductor.Tools{Box: box}, People: conductor.People{Approver: conductor.ApproveLater}, Env: conductor.Env{Store: store.NewMemory(), SessionID: "x1"}})
			if err != nil {
				t.Fatal(err)
			}
			t.Cleanup(func() { _ = a.Close() })
			go func() { _, _ = a.Submit(ctx, conductor.Text("go")) }()
			t.Cleanup(func() { _ = a.Abort(ctx, contract.AbortNow) })
			first := waitForTurn(t, a, 1)
			if err := tc.give(a); err != nil {
				t.Fatal(err)
			}
			second := waitForTurn(t, a, 2)
			_, status, err := applyAnswers(ctx, "t", staleRunner{agentRunner{a}, first}, []clientAnswer{{callID: "call_0", text: "yes"}}, nil)
			if status != http.StatusConflict {
				t.Fatalf("answer for the first turn's call: status %d (%v), want 409", status, err)
			}
			if diff := cmp.Diff(second.Pending, a.Snapshot().Pending); diff != "" {
				t.Errorf("the second turn's call was answered (-want +got):\n%s", diff)
			}
		})
	}
}

// asksUnderOneID asks a person twice, each time under call_0.
func asksUnderOneID() *script {
	return underOneID("ask_human", `{"question":"Which city?"}`, `{"question":"Which street?"}`)
}

// waitForTurn waits until the agent's run waits for a person on a call
// of its turn-th model reply.
func waitForTurn(t *testing.T, a *conductor.Agent, turn int) contract.RunSnapshot {
	t.Helper()
	deadline := time.Now().Add(10 * time.Second)
	for time.Now().Before(deadline) {
		s := a.Snapshot()
		if s.Turns == turn && len(s.Pending) == 1 && (s.Pending[0].State == contract.CallAwaitingApproval || s.Pending[0].State == contract.CallAwaitingHuman) {
			return s
		}
		time.Sleep(time.Millisecond)
	}
	t.Fatalf("the run never waited for a person at turn %d: %+v", turn, a.Snapshot())
	return contract.RunSnapshot{}
}
