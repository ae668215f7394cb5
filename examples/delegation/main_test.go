package main

import (
	"context"
	"slices"
	"strings"
	"testing"

	"github.com/batonrt/baton/cadence"
	"github.com/batonrt/baton/contract"
	"github.com/batonrt/baton/store"
	"go.uber.org/goleak"
)

func TestMain(m *testing.M) { goleak.VerifyTestMain(m) }

// The program's output. The two children run at once, and the parent's
// steps record whichever settles first first, so the DAG's lines come in
// either order.
func Example() {
	main()
	// Unordered output:
	// child d1:
	//     run_started
	//     turn_started
	//     turn_completed
	//     tool_call lookup
	//     tool_started lookup
	//     tool_result lookup: Norway: fjords, 1,190 km of coastline
	//     turn_started
	//     turn_completed
	//     run_settled
	// child d2:
	//     run_started
	//     turn_started
	//     turn_completed
	//     run_settled
	// Brief: Norway: fjords, 1,190 km of coastline / Grey waves fold on the sea.
	// step 5 model_replied
	// step 4 delegate_settled
	//     step 4 model_replied
	//     step 3 tool_settled
	//     step 2 model_replied
	//     step 1 submitted
	// step 3 delegate_settled
	//     step 2 model_replied
	//     step 1 submitted
	// step 2 model_replied
	// step 1 submitted
	// replayed the parent and both children: identical
}

func TestDelegationRunsAndReplays(t *testing.T) {
	ctx := context.Background()
	st := store.NewMemory()
	id, answer, work, err := run(ctx, st)
	if err != nil {
		t.Fatal(err)
	}
	if want := "Brief: Norway: fjords, 1,190 km of coastline / Grey waves fold on the sea."; answer != want {
		t.Errorf("answer %q, want %q", answer, want)
	}
	for _, path := range []string{"d1", "d2"} {
		if !slices.Contains(work[path], string(contract.EvRunSettled)) {
			t.Errorf("child %s: no run_settled in %v", path, work[path])
		}
	}
	if !slices.Contains(work["d1"], "tool_result lookup: Norway: fjords, 1,190 km of coastline") {
		t.Errorf("the researcher's tool work is missing: %v", work["d1"])
	}
	if err := st.Verify(ctx); err != nil {
		t.Fatal(err)
	}
	head, err := st.Head(ctx, id)
	if err != nil {
		t.Fatal(err)
	}
	var b strings.Builder
	if err := graph(ctx, st, head, "", &b); err != nil {
		t.Fatal(err)
	}
	if n := strings.Count(b.String(), "    step 1 submitted"); n != 2 {
		t.Errorf("the DAG links %d child chains, want 2:\n%s", n, b.String())
	}
	if err := store.Replay(ctx, st, cadence.New(config), id); err != nil {
		t.Fatalf("replay: %v", err)
	}
}
