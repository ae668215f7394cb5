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
