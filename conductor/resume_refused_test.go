package conductor_test

import (
	"context"
	"encoding/json"
	"errors"
	"sync"
	"testing"

	"github.com/google/go-cmp/cmp"
	"go.uber.org/goleak"

	"github.com/batonrt/baton/cadence"
	"github.com/batonrt/baton/conductor"
	"github.com/batonrt/baton/contract"
	"github.com/batonrt/baton/dispatch"
	"github.com/batonrt/baton/store"
)

// inFlightWithRunTools leaves "session_test" in base with a run in
// flight, stopped while the run's own tool lookup (given with Submit)
// runs, and returns that tool.
func inFlightWithRunTools(t *testing.T, base store.Store) dispatch.Tool {
	t.Helper()
	lookup := rawTool(t, "lookup", func(context.Context, json.RawMessage) (contract.ToolOutcome, error) {
		return contract.ToolOutcome{Content: "found it"}, nil
	}, dispatch.Idempotent())
	deps := testDeps(&fakeModel{replies: []replyFunc{callTools(call{"c1", "lookup", `{}`})}}, toolBox(t))
	// Durable: the submit and the reply that starts the call.
	deps.Env.Store = &crashingStore{Store: base, after: 2}
	a := newAgent(t, contract.AgentConfig{}, deps)
	if _, err := a.Submit(ctxT(t), conductor.Input{Text: "go", Tools: []dispatch.Tool{lookup}}); !errors.Is(err, contract.ErrStore) {
		t.Fatalf("submit: %v", err)
	}
	_ = a.Close()
	return lookup
}

// unknownPhaseOnce hands out, once, a checkpoint at the session's head
// whose run is in a phase the rules do not know, so they refuse the
// resume's record; then it checkpoints nothing.
type unknownPhaseOnce struct {
	store.Store
	mu   sync.Mutex
	done bool
}

func (u *unknownPhaseOnce) Checkpoint(ctx context.Context, id string) (store.Checkpoint, error) {
	u.mu.Lock()
	defer u.mu.Unlock()
	if u.done {
		return store.Checkpoint{}, store.ErrNotFound
	}
	u.done = true
	head, err := u.Store.Head(ctx, id)
	if err != nil {
		return store.Checkpoint{}, err
	}
	snap, err := store.Resume(ctx, u.Store, cadence.New(contract.AgentConfig{Model: "gpt-4o"}), id)
	if err != nil {
		return store.Checkpoint{}, err
	}
	snap.Phase = "unheard_of"
	return store.Checkpoint{At: head, Snapshot: snap}, nil
}

// TestRefusedResumeLeavesTheAgentAsItWas: Resume or Reopen of a stored
// run in flight fails after the session is read: the run's tools cannot
// make a tool box (two of one name), the store refuses the resume's
// record, or the rules do. Nothing of the run is the agent's then: it must not hold the
// session's lock, nor show the stored run as its own in flight with no
// run to answer for it; it goes on as before the call, takes a Submit on
// its own session, and a later Resume with the right tools finishes the
// stored run. It starts no goroutine that outlives the failure.
func TestRefusedResumeLeavesTheAgentAsItWas(t *testing.T) {
	for _, how := range []string{"tools refused", "record refused", "rules refuse"} {
		for _, call := range []string{"Resume", "Reopen"} {
			t.Run(how+" "+call, func(t *testing.T) {
				ctx := ctxT(t)
				base := store.NewMemory()
				lookup := inFlightWithRunTools(t, base)
				var st store.Store = base
				tools := []dispatch.Tool{lookup, lookup}
				var wantKind error = contract.ErrConfig
				switch how {
				case "record refused":
					// The first append, the resume's record, is refused.
					st = &failOnceStore{Store: base, prefix: "session_test", n: 1}
					tools, wantKind = []dispatch.Tool{lookup}, contract.ErrStore
				case "rules refuse":
					st = &unknownPhaseOnce{Store: base}
					tools, wantKind = []dispatch.Tool{lookup}, conductor.ErrRejected
				}
				deps := testDeps(&fakeModel{replies: []replyFunc{say("hello"), say("done")}}, toolBox(t))
				deps.Env.Store = st
				deps.Env.SessionID = "own"
				b := newAgent(t, contract.AgentConfig{}, deps)
				before := shown(b.Snapshot())
				idle := goleak.IgnoreCurrent()

				var err error
				if call == "Resume" {
					_, err = b.Resume(ctx, "session_test", tools...)
				} else {
					_, err = b.Reopen(ctx, "session_test", tools...)
				}
				if !errors.Is(err, wantKind) {
					t.Fatalf("%s: got %v, want an error matching %v", call, err, wantKind)
				}
				if diff := cmp.Diff(before, shown(b.Snapshot())); diff != "" {
					t.Errorf("snapshot after the refused %s mismatch (-want +got):\n%s", call, diff)
				}
				if err := b.Failed(); err != nil {
					t.Errorf("Failed after the refused %s: %v, want nil", call, err)
				}
				goleak.VerifyNone(t, idle)
				lease, err := base.Lease(ctx, "session_test")
				if err != nil {
					t.Fatalf("the session's lock is still held after the refused %s: %v", call, err)
				}
				_ = lease.Release()

				snap, err := b.Submit(ctx, conductor.Text("hi"))
				if err != nil || snap.SessionID != "own" || snap.Phase != contract.PhaseSettled {
					t.Fatalf("Submit after the refused %s: session %q, phase %s, err %v", call, snap.SessionID, snap.Phase, err)
				}
				snap, err = b.Resume(ctx, "session_test", lookup)
				if err != nil || snap.Phase != contract.PhaseSettled {
					t.Fatalf("Resume again: phase %s, err %v", snap.Phase, err)
				}
				if got := results(snap); len(got) != 1 || got[0].Content != "found it" {
					t.Errorf("resumed run's results %+v, want the lookup's", got)
				}
			})
		}
	}
}
