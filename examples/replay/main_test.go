package main

import (
	"context"
	"errors"
	"testing"

	"github.com/batonrt/baton/cadence"
	"github.com/batonrt/baton/contract"
	"github.com/batonrt/baton/store"
	"github.com/google/go-cmp/cmp"
	"go.uber.org/goleak"
)

func TestMain(m *testing.M) { goleak.VerifyTestMain(m) }

// The program's output, so a change that breaks the example fails here.
func Example() {
	main()
	// Output:
	// replayed 4 steps: identical
	// with the reply edited: cadence: nondeterministic step 2: recorded "publish turn_completed#3; publish tool_call#4; publish tool_started#5; run_tool call_1 add", replayed "publish turn_completed#3; publish tool_call#4; publish tool_result#5; publish turn_started#6; invoke_model turn=2 history=3 tokens=47 tools=1"
}

func TestSessionReplays(t *testing.T) {
	ctx := context.Background()
	st := store.NewMemory()
	id, cfg, err := record(ctx, st)
	if err != nil {
		t.Fatal(err)
	}
	if diff := cmp.Diff([]contract.ToolDescriptor{addTool().Descriptor()}, cfg.Tools); diff != "" {
		t.Errorf("the agent's tools are not the box's (-want +got):\n%s", diff)
	}
	if _, err := verify(ctx, st, id, cfg); err != nil {
		t.Fatalf("replay: %v", err)
	}
	// The session recorded its config, so other rules replay it as it ran.
	if _, err := verify(ctx, st, id, config); err != nil {
		t.Fatalf("replay under other rules: %v", err)
	}
	_, err = replayEdited(ctx, st, id, cfg)
	var d *cadence.Divergence
	if !errors.Is(err, cadence.ErrNondeterministic) || !errors.As(err, &d) {
		t.Fatalf("replay of an edited reply: got %v, want a divergence", err)
	}
	if d.Step != 2 {
		t.Errorf("divergence at step %d, want 2 (the edited reply)", d.Step)
	}
}
