package store_test

import (
	"context"
	"errors"
	"fmt"
	"iter"
	"strings"
	"testing"

	"github.com/batonrt/baton/cadence"
	"github.com/batonrt/baton/contract"
	"github.com/batonrt/baton/store"
	"github.com/google/go-cmp/cmp"
)

func testRules() *cadence.Rules { return cadence.New(contract.AgentConfig{Model: "m"}) }

// cadenceSession steps n signals (runs of a submit and a final reply)
// through rules and returns the records they persisted with the snapshot
// after each step.
func cadenceSession(tb testing.TB, rules *cadence.Rules, id string, n int) ([]contract.Record, []contract.RunSnapshot) {
	tb.Helper()
	s := cadence.InitialSnapshot(id)
	var recs []contract.Record
	var snaps []contract.RunSnapshot
	for i := range n {
		at := contract.Timestamp(1_000_000 * int64(i+1))
		var sig contract.Signal = contract.Submitted{RunID: fmt.Sprintf("run-%d", i), Input: []contract.Turn{contract.UserText("hi")}, At: at}
		if i%2 == 1 {
			sig = contract.ModelReplied{Reply: contract.Turn{Role: contract.RoleAssistant, Blocks: []contract.Block{contract.TextBlock("hello")}}, Stop: contract.StopEndTurn, At: at}
		}
		next, effects, err := rules.Step(s, sig)
		if err != nil {
			tb.Fatalf("step %d: %v", i, err)
		}
		recs = append(recs, effects[0].(*contract.Persist).Record)
		snaps = append(snaps, next)
		s = next
	}
	return recs, snaps
}

func encodeSnap(t *testing.T, s contract.RunSnapshot) string {
	t.Helper()
	b, err := contract.EncodeSnapshot(s)
	if err != nil {
		t.Fatal(err)
	}
	return string(b)
}

// countingStore counts the nodes Resume walks.
type countingStore struct {
	store.Store
	walked int
}

func (c *countingStore) Walk(ctx context.Context, from store.Hash) iter.Seq2[store.Node, error] {
	return func(yield func(store.Node, error) bool) {
		for n, err := range c.Store.Walk(ctx, from) {
			c.walked++
			if !yield(n, err) {
				return
			}
		}
	}
}

func TestResume(t *testing.T) {
	ctx := t.Context()
	rules := testRules()
	n := store.CheckpointEvery + 40
	recs, snaps := cadenceSession(t, rules, "s", n)
	st := &countingStore{Store: store.NewMemory()}
	if _, err := st.Append(ctx, "s", recs[:n-20]...); err != nil {
		t.Fatal(err)
	}
	got, err := store.Resume(ctx, st, rules, "s")
	if err != nil {
		t.Fatal(err)
	}
	if d := cmp.Diff(encodeSnap(t, snaps[n-21]), encodeSnap(t, got)); d != "" {
		t.Fatalf("first resume mismatch (-want +got):\n%s", d)
	}
	cp, err := st.Checkpoint(ctx, "s")
	if err != nil || cp.Snapshot.Steps != uint64(n-20) {
		t.Fatalf("no checkpoint at the head after folding %d records: %v, %v", n-20, cp.Snapshot.Steps, err)
	}
	if _, err := st.Append(ctx, "s", recs[n-20:]...); err != nil {
		t.Fatal(err)
	}
	st.walked = 0
	got, err = store.Resume(ctx, st, rules, "s")
	if err != nil {
		t.Fatal(err)
	}
	if d := cmp.Diff(encodeSnap(t, snaps[n-1]), encodeSnap(t, got)); d != "" {
		t.Fatalf("resume from checkpoint mismatch (-want +got):\n%s", d)
	}
	if st.walked != 21 {
		t.Errorf("resume walked %d nodes, want 21 (20 new and the checkpoint's)", st.walked)
	}
}

func TestResumeForkIgnoresForeignCheckpoint(t *testing.T) {
	ctx := t.Context()
	rules := testRules()
	recs, _ := cadenceSession(t, rules, "s", 10)
	st := store.NewMemory()
	head, err := st.Append(ctx, "s", recs[:6]...)
	if err != nil {
		t.Fatal(err)
	}
	if _, err := st.Append(ctx, "s", recs[6:]...); err != nil {
		t.Fatal(err)
	}
	if err := st.Fork(ctx, "f", head); err != nil {
		t.Fatal(err)
	}
	_, fsnaps := cadenceSession(t, rules, "f", 6)
	got, err := store.Resume(ctx, st, rules, "f")
	if err != nil {
		t.Fatal(err)
	}
	if d := cmp.Diff(encodeSnap(t, fsnaps[5]), encodeSnap(t, got)); d != "" {
		t.Fatalf("fork resume mismatch (-want +got):\n%s", d)
	}
}

func TestReplay(t *testing.T) {
	ctx := t.Context()
	rules := testRules()
	recs, _ := cadenceSession(t, rules, "s", 8)
	st := store.NewMemory()
	if _, err := st.Append(ctx, "s", recs...); err != nil {
		t.Fatal(err)
	}
	if err := store.Replay(ctx, st, rules, "s"); err != nil {
		t.Fatalf("replay of a faithful session: %v", err)
	}
	bad := append([]contract.Record(nil), recs...)
	bad[2].Effects = "something else"
	if _, err := st.Append(ctx, "bad", bad...); err != nil {
		t.Fatal(err)
	}
	err := store.Replay(ctx, st, rules, "bad")
	if !errors.Is(err, cadence.ErrNondeterministic) || !strings.Contains(err.Error(), "nondeterministic step 3") {
		t.Fatalf("got %v, want a divergence at step 3", err)
	}
	if _, err := store.Resume(ctx, st, nil, "s"); !errors.Is(err, store.ErrInvalid) {
		t.Fatalf("nil rules: got %v, want ErrInvalid", err)
	}
	if err := store.Replay(ctx, st, rules, "nobody"); !errors.Is(err, store.ErrNotFound) {
		t.Fatalf("unknown session: got %v, want ErrNotFound", err)
	}
}

func cadenceInitial(id string) contract.RunSnapshot { return cadence.InitialSnapshot(id) }
