package conductor

import (
	"context"
	"iter"
	"sync/atomic"
	"testing"
	"time"

	"github.com/batonrt/baton/contract"
	"github.com/batonrt/baton/turn"
)

// callZeroTwice calls echo under call_0 in each of its first two
// replies, then ends its turn.
type callZeroTwice struct{ calls atomic.Int32 }

func (p *callZeroTwice) Stream(ctx context.Context, _ contract.ModelRequest) iter.Seq2[turn.Chunk, error] {
	return func(yield func(turn.Chunk, error) bool) {
		chunks := []turn.Chunk{{Kind: turn.ChunkText, Text: "done"}, {Kind: turn.ChunkStop, Stop: contract.StopEndTurn}}
		if p.calls.Add(1) <= 2 {
			chunks = []turn.Chunk{
				{Kind: turn.ChunkToolCallStart, CallID: "call_0", Name: "echo"},
				{Kind: turn.ChunkToolCallArgs, Text: `{"text":"hi"}`},
				{Kind: turn.ChunkToolCallEnd},
				{Kind: turn.ChunkStop, Stop: contract.StopToolUse},
			}
		}
		for _, c := range chunks {
			if !yield(c, nil) {
				return
			}
		}
	}
}

// TestApproverDecisionForAnEarlierTurnIsNotApplied: an approver's
// decision on the first reply's call_0, handed in as the run moved on
// (a steer skipped the call and the next reply asked under call_0
// again), is not applied to the new call: it waits for its own.
func TestApproverDecisionForAnEarlierTurnIsNotApplied(t *testing.T) {
	box := approvalEchoBox(t, func(string) {})
	asked := make(chan ApprovalRequest, 2)
	deps := Deps{
		Model: Model{Provider: &callZeroTwice{}, MaxRetries: turn.NoRetries},
		Tools: Tools{Box: box},
		People: People{Approver: func(_ context.Context, req ApprovalRequest) (Decision, error) {
			asked <- req
			return Decision{}, ErrApproveLater
		}},
		Env: Env{SessionID: "session_late_decision", IDs: &CountingIDs{}},
	}
	a, err := CreateAgent(contract.AgentConfig{Model: "m"}, deps)
	if err != nil {
		t.Fatal(err)
	}
	defer a.Close()
	go func() { _, _ = a.Submit(context.Background(), Text("go")) }()
	defer a.Abort(t.Context(), contract.AbortNow)
	first := <-asked
	if err := a.Steer(t.Context(), Text("again")); err != nil {
		t.Fatal(err)
	}
	second := <-asked
	if second.Turn == first.Turn {
		t.Fatalf("both requests are of turn %d", first.Turn)
	}

	var waits bool
	err = a.call(context.Background(), func() error {
		a.run.handedIn.add(CallDecision{CallID: first.Call.ID, RunID: first.RunID, Turn: first.Turn, Decision: Decision{Approved: true}})
		a.applyHandedIn(a.run)
		waits = a.awaitsApproval("call_0")
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	if !waits {
		t.Fatalf("the second reply's call_0 was decided by the first's decision: %+v", a.Snapshot().Pending)
	}
	if err := a.ApproveCalls(t.Context(), nil, []CallDecision{{CallID: "call_0", RunID: second.RunID, Turn: second.Turn, Decision: Decision{Approved: true}}}); err != nil {
		t.Fatal(err)
	}
	deadline := time.Now().Add(5 * time.Second)
	for a.Snapshot().Phase != contract.PhaseSettled {
		if time.Now().After(deadline) {
			t.Fatalf("the run never settled: %+v", a.Snapshot())
		}
		time.Sleep(time.Millisecond)
	}
}
