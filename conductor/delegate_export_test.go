package conductor_test

import (
	"bytes"
	"context"
	"sync"
	"testing"

	"github.com/batonrt/baton/cadence"
	"github.com/batonrt/baton/contract"
	"github.com/batonrt/baton/store"
	"github.com/google/go-cmp/cmp"
)

// TestExportedTreeInFlightResumesWhereItStopped: a session exported by
// name while its delegate's child (and the child's own) still run takes
// their sessions along, so once imported elsewhere and resumed each
// child goes on from its records instead of starting its task over:
// no model is called again before the person's answer.
func TestExportedTreeInFlightResumesWhereItStopped(t *testing.T) {
	ctx := ctxT(t)
	src := store.NewMemory()
	cfg, model := closeAsking(t, src, askerTwoDown)
	var buf bytes.Buffer
	if err := src.Export(ctx, &buf, "session_test"); err != nil {
		t.Fatal(err)
	}
	dst := store.NewMemory()
	ids, err := dst.Import(ctx, &buf)
	if err != nil {
		t.Fatal(err)
	}
	if diff := cmp.Diff([]string{"session_test", "session_test/2.0", "session_test/2.0/2.0"}, ids); diff != "" {
		t.Errorf("imported sessions mismatch (-want +got):\n%s", diff)
	}
	var mu sync.Mutex
	calls := map[string]int{}
	for _, name := range []string{"mid", "asker"} {
		inner := model[name]
		model[name] = func(ctx context.Context, req contract.ModelRequest) replyFunc {
			mu.Lock()
			calls[name]++
			mu.Unlock()
			return inner(ctx, req)
		}
	}
	resumeAnswering(t, dst, cfg, model)
	// Each called once: after the answer, to finish.
	if diff := cmp.Diff(map[string]int{"mid": 1, "asker": 1}, calls); diff != "" {
		t.Errorf("model calls after the import mismatch (-want +got):\n%s", diff)
	}
	checkDAG(t, dst, "session_test", 2)
	if err := store.Replay(ctx, dst, cadence.New(cfg), "session_test"); err != nil {
		t.Errorf("replay: %v", err)
	}
}
