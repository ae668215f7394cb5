package conductor

import (
	"context"
	"iter"
	"slices"
	"sync"
	"sync/atomic"
	"testing"

	"github.com/batonrt/baton/contract"
	"github.com/batonrt/baton/dispatch"
	"github.com/batonrt/baton/turn"
)

// twoCallsThenDone calls echo on c1 and c2 at once, then ends its turn.
type twoCallsThenDone struct{ calls atomic.Int32 }

func (p *twoCallsThenDone) Stream(ctx context.Context, _ contract.ModelRequest) iter.Seq2[turn.Chunk, error] {
	return func(yield func(turn.Chunk, error) bool) {
		var chunks []turn.Chunk
		if p.calls.Add(1) == 1 {
			for i, c := range [][2]string{{"c1", "one"}, {"c2", "two"}} {
				chunks = append(chunks,
					turn.Chunk{Kind: turn.ChunkToolCallStart, Index: i, CallID: c[0], Name: "echo"},
					turn.Chunk{Kind: turn.ChunkToolCallArgs, Index: i, Text: `{"text":"` + c[1] + `"}`},
					turn.Chunk{Kind: turn.ChunkToolCallEnd, Index: i})
			}
			chunks = append(chunks, turn.Chunk{Kind: turn.ChunkStop, Stop: contract.StopToolUse})
		} else {
			chunks = []turn.Chunk{{Kind: turn.ChunkText, Text: "done"}, {Kind: turn.ChunkStop, Stop: contract.StopEndTurn}}
		}
		for _, c := range chunks {
			if !yield(c, nil) {
				return
			}
		}
	}
}

// approvalEchoBox holds echo, which needs approval and tells ran what it
// echoes.
func approvalEchoBox(t *testing.T, ran func(text string)) *dispatch.ToolBox {
	t.Helper()
	echo, err := dispatch.Func("echo", "Echoes its text.", func(_ context.Context, in struct {
		Text string `json:"text"`
	}) (string, error) {
		ran(in.Text)
		return in.Text, nil
	}, dispatch.NeedsApproval())
	if err != nil {
		t.Fatal(err)
	}
	box, err := dispatch.NewToolBox(echo)
	if err != nil {
		t.Fatal(err)
	}
	return box
}

// TestApproverDenialHandedInWithAnAlwaysWins: people asked about two
// calls at once (an Approver asks each in parallel) allow the first's
// tool for the session and deny the second, the denial handed in before
// the "always" is applied. The denied call does not run: it used to,
// the "always" applied first allowing it too, and the denial refused.
func TestApproverDenialHandedInWithAnAlwaysWins(t *testing.T) {
	var mu sync.Mutex
	var ran []string
	box := approvalEchoBox(t, func(text string) {
		mu.Lock()
		defer mu.Unlock()
		ran = append(ran, text)
	})
	decisions := map[string]chan Decision{"c1": make(chan Decision), "c2": make(chan Decision)}
	asked := make(chan string, 2)
	deps := Deps{
		Model: Model{Provider: &twoCallsThenDone{}, MaxRetries: turn.NoRetries},
		Tools: Tools{Box: box},
		People: People{Approver: func(ctx context.Context, req ApprovalRequest) (Decision, error) {
			asked <- req.Call.ID
			select {
			case d := <-decisions[req.Call.ID]:
				return d, nil
			case <-ctx.Done():
				return Decision{}, ctx.Err()
			}
		}},
		Env: Env{SessionID: "session_approvers", IDs: &CountingIDs{}},
	}
	a, err := CreateAgent(contract.AgentConfig{Model: "m"}, deps)
	if err != nil {
		t.Fatal(err)
	}
	defer a.Close()
	done := make(chan contract.RunSnapshot, 1)
	go func() {
		snap, _ := a.Submit(context.Background(), Text("go"))
		done <- snap
	}()
	<-asked
	<-asked

	// Hold the agent's turn, so both decisions are handed in before
	// either is applied.
	held, release := make(chan struct{}), make(chan struct{})
	go a.enqueue(&task{fn: func() { close(held); <-release }})
	<-held
	decisions["c1"] <- Decision{Approved: true, Scope: contract.ScopeSession}
	waitInbox(t, a, 1)
	decisions["c2"] <- Decision{Reason: "not that one"}
	waitInbox(t, a, 2)
	close(release)

	snap := <-done
	var got []string
	for _, turn := range snap.History.Turns() {
		for _, r := range turn.Results() {
			got = append(got, r.CallID+": "+r.Content)
		}
	}
	want := []string{"c1: one", "c2: error: the user denied this call: not that one"}
	if !slices.Equal(got, want) {
		t.Errorf("results %q, want %q", got, want)
	}
	mu.Lock()
	defer mu.Unlock()
	if !slices.Equal(ran, []string{"one"}) {
		t.Errorf("echo ran on %q, want only the approved call's", ran)
	}
}
