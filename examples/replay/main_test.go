package main

import (
	"context"
	"errors"
	"testing"

	"github.com/batonrt/baton/cadence"
	"github.com/batonrt/baton/contract"
	"github.com/batonrt/baton/store"
	"go.uber.org/goleak"
)

func TestMain(m *testing.M) { goleak.VerifyTestMain(m) }

func TestSessionReplays(t *testing.T) {
	ctx := context.Background()
	st := store.NewMemory()
	id, err := record(ctx, st)
	if err != nil {
		t.Fatal(err)
	}
	cfg := config
	cfg.Tools = []contract.ToolDescriptor{addTool().Descriptor()}
	if _, err := verify(ctx, st, id, cfg); err != nil {
		t.Fatalf("replay: %v", err)
	}
	if _, err := verify(ctx, st, id, config); !errors.Is(err, cadence.ErrNondeterministic) {
		t.Fatalf("replay under other rules: got %v, want a divergence", err)
	}
}
