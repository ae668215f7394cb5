package store_test

import (
	"context"
	"errors"
	"strings"
	"testing"

	"github.com/batonrt/baton/cadence"
	"github.com/batonrt/baton/contract"
	"github.com/batonrt/baton/store"
)

// stepAll folds signals from a new session and returns the records and
// the links of each.
func stepAll(t *testing.T, rules *cadence.Rules, session string, sigs ...contract.Signal) []contract.Persist {
	t.Helper()
	s := cadence.InitialSnapshot(session)
	var out []contract.Persist
	for _, sig := range sigs {
		next, effects, err := rules.Step(s, sig)
		if err != nil {
			t.Fatal(err)
		}
		out = append(out, *effects[0].(*contract.Persist))
		s = next
	}
	return out
}

// TestReplayWalksLinkedChildrenAndNamesADivergentOne: a parent whose
// delegate call links a child's chain replays whole; when a child's record
// does not match its rules, the error names the child session, the
// parent's linking step and the child's step.
func TestReplayWalksLinkedChildrenAndNamesADivergentOne(t *testing.T) {
	childCfg := contract.AgentConfig{Model: "m", System: "child"}
	parentCfg := contract.AgentConfig{Model: "m", Delegates: []contract.Delegate{{Name: "helper", Config: childCfg}}}
	user := []contract.Turn{contract.UserText("go")}
	answer := contract.ModelReplied{Reply: contract.Turn{Role: contract.RoleAssistant, Blocks: []contract.Block{contract.TextBlock("done")}}, At: 3}
	parent := stepAll(t, cadence.New(parentCfg), "p",
		contract.Submitted{RunID: "r1", Input: user, Config: &parentCfg, At: 1},
		contract.ModelReplied{Reply: contract.Turn{Role: contract.RoleAssistant, Blocks: []contract.Block{contract.CallBlock(contract.ToolCall{ID: "c1", Name: "delegate_helper", Arguments: `{"task":"t"}`})}}, At: 2},
		contract.DelegateSettled{CallID: "c1", Session: "p/2.0", Outcome: contract.ToolOutcome{Content: "done"}, At: 5},
		answer,
	)
	if diff := strings.Join(parent[2].Links, ","); diff != "p/2.0" {
		t.Fatalf("delegate_settled links %q, want p/2.0", diff)
	}
	child := childCfg.WithDefaults()
	child.Depth = 1
	child.MaxDelegationDepth = 3
	kid := stepAll(t, cadence.New(child), "p/2.0",
		contract.Submitted{RunID: "r2", Input: []contract.Turn{contract.UserText("t")}, Config: &child, At: 3},
		answer,
	)

	for _, tamper := range []bool{false, true} {
		ctx := context.Background()
		st := store.NewMemory()
		kidRecs := []contract.Record{kid[0].Record, kid[1].Record}
		if tamper {
			kidRecs[1].Effects = "publish run_settled#9"
		}
		childHead, err := st.Append(ctx, "p/2.0", kidRecs...)
		if err != nil {
			t.Fatal(err)
		}
		if _, err := st.Append(ctx, "p", parent[0].Record, parent[1].Record); err != nil {
			t.Fatal(err)
		}
		if _, err := st.AppendLinked(ctx, "p", parent[2].Record, childHead); err != nil {
			t.Fatal(err)
		}
		if _, err := st.Append(ctx, "p", parent[3].Record); err != nil {
			t.Fatal(err)
		}
		err = store.Replay(ctx, st, cadence.New(parentCfg), "p")
		if !tamper {
			if err != nil {
				t.Fatalf("replay: %v", err)
			}
			continue
		}
		var d *cadence.Divergence
		if !errors.As(err, &d) || d.Step != 2 {
			t.Fatalf("replay of a tampered child = %v, want a divergence at the child's step 2", err)
		}
		const want = `store: replay "p": child "p/2.0" linked at step 3: cadence: nondeterministic step 2`
		if !strings.HasPrefix(err.Error(), want) {
			t.Errorf("replay error\n got %s\nwant %s...", err, want)
		}
	}
}
