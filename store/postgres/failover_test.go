package postgres

import (
	"errors"
	"strings"
	"testing"

	"github.com/batonrt/baton/cadence"
	"github.com/batonrt/baton/conductor"
	"github.com/batonrt/baton/contract"
	"github.com/batonrt/baton/provider/scripted"
	"github.com/batonrt/baton/store"
	"github.com/batonrt/baton/store/postgres/pgtest"
)

func agentOn(t *testing.T, st store.Store, id string, replies ...scripted.Reply) *conductor.Agent {
	t.Helper()
	a, err := conductor.CreateAgent(contract.AgentConfig{Model: "scripted"}, conductor.Deps{Model: conductor.Model{Provider: scripted.New(replies...)}, Env: conductor.Env{Store: st, SessionID: id}})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { a.Close() })
	return a
}

// Two machines share a session through PostgreSQL: when the first owner
// loses its connection, the second resumes the session and goes on, and
// the first owner's next run ends with a store error that says it lost
// the session's lock; the session keeps only the new owner's steps.
func TestStaleOwnerRunEndsWithStoreError(t *testing.T) {
	ctx := t.Context()
	url := pgtest.SchemaURL(t)
	ba, bb := openBackend(t, url), openBackend(t, url)
	stA, stB := store.New(ba), store.New(bb)
	defer stA.Close()
	defer stB.Close()

	a := agentOn(t, stA, "shared", scripted.Reply{Text: "one"}, scripted.Reply{Text: "stale"})
	if _, err := a.Submit(ctx, conductor.Text("first")); err != nil {
		t.Fatal(err)
	}
	b := agentOn(t, stB, "shared", scripted.Reply{Text: "two"})
	if _, err := b.Resume(ctx, "shared"); !errors.Is(err, store.ErrLocked) {
		t.Fatalf("resume while the owner lives: got %v, want ErrLocked", err)
	}
	terminateOwner(t, ba)
	if _, err := b.Resume(ctx, "shared"); err != nil {
		t.Fatalf("resume after the owner died: %v", err)
	}
	snap, err := b.Submit(ctx, conductor.Text("second"))
	if err != nil || snap.Phase != contract.PhaseSettled {
		t.Fatalf("new owner's run: %v, %v", snap.Phase, err)
	}
	head, err := stB.Head(ctx, "shared")
	if err != nil {
		t.Fatal(err)
	}

	_, err = a.Submit(ctx, conductor.Text("from the stale owner"))
	t.Logf("stale owner: %v", err)
	var re *contract.RunError
	if !errors.As(err, &re) || re.Kind != contract.KindStore || !errors.Is(err, store.ErrLockLost) || !strings.Contains(err.Error(), "session lock lost") {
		t.Fatalf("stale owner's run: got %v, want a store error saying the session lock was lost", err)
	}
	if got, err := stB.Head(ctx, "shared"); err != nil || got != head {
		t.Fatalf("head moved to %s (%v) after the stale owner's run; want %s", got, err, head)
	}
	if err := stB.Verify(ctx); err != nil {
		t.Fatal(err)
	}
	if err := store.Replay(ctx, stB, cadence.New(contract.AgentConfig{Model: "scripted"}), "shared"); err != nil {
		t.Fatal(err)
	}
}
