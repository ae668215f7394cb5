package wire

import (
	"context"
	"errors"
	"net/http"
	"testing"

	"github.com/batonrt/baton/conductor"
	"github.com/batonrt/baton/contract"
	"github.com/batonrt/baton/dispatch"
	"github.com/batonrt/baton/turn"
)

// staleRunner reads the run as it was before another client's answer
// landed: the window between a request's look at the run and its answer.
type staleRunner struct {
	agentRunner
	snap contract.RunSnapshot
}

func (s staleRunner) Snapshot() contract.RunSnapshot { return s.snap }

// TestLateAnswerDoesNotReachAChild: two clients answer the run's own
// call_1 at once, and a delegate's child run asks a question or an
// approval under the same id call_1. The answer that loses is refused
// with a conflict; it used to fall through to the child's call_1, which
// nobody had answered.
func TestLateAnswerDoesNotReachAChild(t *testing.T) {
	for _, tc := range []struct {
		name, tool, args, answer string
	}{
		{"approval", "delete_file", `{"path":"build"}`, "yes"},
		{"question", "ask_human", `{"question":"which?"}`, "this one"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			call := func(id, name, args string) turn.Chunk {
				return turn.Chunk{Kind: turn.ChunkToolCallStart, CallID: id, Name: name}
			}
			prov := &script{replies: []func(context.Context) ([]turn.Chunk, error){
				reply(call("call_1", tc.tool, ""), turn.Chunk{Kind: turn.ChunkToolCallArgs, Text: tc.args}, turn.Chunk{Kind: turn.ChunkToolCallEnd},
					turn.Chunk{Kind: turn.ChunkToolCallStart, Index: 1, CallID: "call_d", Name: "delegate_cleaner"}, turn.Chunk{Kind: turn.ChunkToolCallArgs, Index: 1, Text: `{"task":"clean"}`}, turn.Chunk{Kind: turn.ChunkToolCallEnd, Index: 1},
					turn.Chunk{Kind: turn.ChunkStop, Stop: contract.StopToolUse}),
				reply(call("call_1", tc.tool, ""), turn.Chunk{Kind: turn.ChunkToolCallArgs, Text: tc.args}, turn.Chunk{Kind: turn.ChunkToolCallEnd}, turn.Chunk{Kind: turn.ChunkStop, Stop: contract.StopToolUse}),
			}}
			box, err := dispatch.NewToolBox(deleteTool(), dispatch.AskHuman(""))
			if err != nil {
				t.Fatal(err)
			}
			cfg := contract.AgentConfig{Model: "m", Tools: []contract.ToolDescriptor{{Name: tc.tool}}, Delegates: []contract.Delegate{
				{Name: "cleaner", Config: contract.AgentConfig{Model: "m", Tools: []contract.ToolDescriptor{{Name: tc.tool}}}},
			}}
			a, err := conductor.CreateAgent(cfg, conductor.Deps{Model: conductor.Model{Provider: prov}, Tools: conductor.Tools{Box: box}, People: conductor.People{Approver: conductor.ApproveLater}})
			if err != nil {
				t.Fatal(err)
			}
			asks := make(chan contract.RunEvent, 8)
			stop := a.Subscribe(func(ev contract.RunEvent) {
				if ev.Kind == contract.EvApprovalRequested || ev.Kind == contract.EvQuestionAsked {
					asks <- ev
				}
			})
			defer stop()
			done := make(chan error, 1)
			go func() {
				_, err := a.Submit(context.Background(), conductor.Input{Turns: []contract.Turn{contract.UserText("clean up")}})
				done <- err
			}()
			defer func() {
				_ = a.Abort(context.Background(), contract.AbortNow)
				<-done
				_ = a.Close()
			}()
			for range 2 {
				<-asks
			}

			stale := staleRunner{agentRunner{a}, a.Snapshot()}
			if err := a.ApproveSubflow(t.Context(), nil, "call_1", conductor.Decision{Approved: true}); tc.name == "approval" && err != nil {
				t.Fatal(err)
			}
			if err := a.AnswerSubflow(context.Background(), nil, "call_1", "that one"); tc.name == "question" && err != nil {
				t.Fatal(err)
			}
			_, status, err := applyAnswers(context.Background(), "t", stale, []clientAnswer{{callID: "call_1", text: tc.answer}}, nil)
			if status != http.StatusConflict || !errors.Is(err, conductor.ErrRejected) {
				t.Errorf("the losing answer: status %d, err %v; want %d and ErrRejected", status, err, http.StatusConflict)
			}
			left, err := a.SubflowAsks(context.Background())
			if err != nil {
				t.Fatal(err)
			}
			if len(left) != 1 || left[0].Call.ID != "call_1" {
				t.Errorf("the child's call_1 was answered by an answer meant for the run's own: still asking %v", left)
			}
		})
	}
}
