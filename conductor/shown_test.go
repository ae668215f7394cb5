package conductor_test

import (
	"context"
	"encoding/json"
	"testing"
	"time"

	"github.com/batonrt/baton/contract"
	"github.com/google/go-cmp/cmp"
)

// The agent's steps change its pending calls in place, so a snapshot a
// host holds must be its own: one taken while a batch runs stays as it
// was when the batch goes on and ends (and -race sees no shared write).
func TestSnapshotHeldWhileABatchRunsStaysAsItWas(t *testing.T) {
	release := make(chan struct{})
	slow := rawTool(t, "slow", func(ctx context.Context, _ json.RawMessage) (contract.ToolOutcome, error) {
		select {
		case <-release:
			return contract.ToolOutcome{Content: "slow done"}, nil
		case <-ctx.Done():
			return contract.ToolOutcome{}, ctx.Err()
		}
	})
	fast := rawTool(t, "fast", func(context.Context, json.RawMessage) (contract.ToolOutcome, error) {
		return contract.ToolOutcome{Content: "fast done"}, nil
	})
	m := &fakeModel{replies: []replyFunc{callTools(call{"c1", "slow", `{}`}, call{"c2", "fast", `{}`}), say("done")}}
	a := newAgent(t, contract.AgentConfig{}, testDeps(m, toolBox(t, slow, fast)))
	done := submitAsync(a, "go")
	// Wait until the fast call is answered and the slow one still runs.
	var held contract.RunSnapshot
	deadline := time.Now().Add(10 * time.Second)
	for {
		held = a.Snapshot()
		if len(held.Pending) == 2 && held.Pending[1].State == contract.CallDone {
			break
		}
		if time.Now().After(deadline) {
			t.Fatalf("the fast call was never answered while the slow one ran: %+v", held.Pending)
		}
		time.Sleep(time.Millisecond)
	}
	was, err := json.Marshal(held.Pending)
	if err != nil {
		t.Fatal(err)
	}
	close(release)
	if s := <-done; s.err != nil || s.snap.Phase != contract.PhaseSettled {
		t.Fatalf("Submit = phase %s, %v; want settled", s.snap.Phase, s.err)
	}
	now, err := json.Marshal(held.Pending)
	if err != nil {
		t.Fatal(err)
	}
	if diff := cmp.Diff(string(was), string(now)); diff != "" {
		t.Errorf("a held snapshot's pending calls changed as the run went on (-was +now):\n%s", diff)
	}
}
