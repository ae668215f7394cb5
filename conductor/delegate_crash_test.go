package conductor_test

import (
	"context"
	"errors"
	"testing"

	"github.com/batonrt/baton/cadence"
	"github.com/batonrt/baton/conductor"
	"github.com/batonrt/baton/contract"
	"github.com/batonrt/baton/store"
	"github.com/batonrt/baton/store/vfs"
)

// twoLevels is a parent that hands two tasks to "mid" at once; each mid
// hands its task on to "leaf". Answers come from the request alone, so a
// resumed run is answered as the first one was.
func twoLevels() (contract.AgentConfig, agentsModel) {
	leaf := contract.AgentConfig{Model: "gpt-4o", System: "leaf"}
	mid := contract.AgentConfig{Model: "gpt-4o", System: "mid", Delegates: []contract.Delegate{{Name: "leaf", Config: leaf}}}
	cfg := contract.AgentConfig{Model: "gpt-4o", System: "parent", Delegates: []contract.Delegate{{Name: "mid", Config: mid}}}
	model := agentsModel{
		"parent": delegateOnce(call{"p1", "delegate_mid", `{"task":"north"}`}, call{"p2", "delegate_mid", `{"task":"south"}`}),
		"mid": func(ctx context.Context, req contract.ModelRequest) replyFunc {
			return delegateOnce(call{"m1", "delegate_leaf", `{"task":"` + lastUser(req) + ` leaf"}`})(ctx, req)
		},
		"leaf": answerTask("leaf"),
	}
	return cfg, model
}

// TestCrashAtEveryWriteWithTwoLevelsOfDelegation crashes the file store at
// each of its writes in turn while a parent runs two children that each
// run a grandchild, keeping none or all of what was not synced. A new
// agent then resumes the session: it must finish the children still in
// flight, then the parent, and leave a DAG that verifies, links every
// child chain exactly once, ends every run with well-formed history and
// replays.
func TestCrashAtEveryWriteWithTwoLevelsOfDelegation(t *testing.T) {
	cfg, model := twoLevels()
	fs := vfs.NewMem()
	st, err := store.OpenFS(fs)
	if err != nil {
		t.Fatal(err)
	}
	deps := testDeps(model, toolBox(t))
	deps.Env.Store = st
	a := newAgent(t, cfg, deps)
	snap, err := a.Submit(ctxT(t), conductor.Text("go"))
	if err != nil {
		t.Fatal(err)
	}
	want := results(snap)
	_ = a.Close()
	total := fs.Ops()
	for _, keep := range []vfs.Keep{vfs.KeepNone, vfs.KeepAll} {
		for n := 1; n <= total; n++ {
			crashAndResume(t, cfg, model, n, keep, want)
		}
	}
	t.Logf("%d crash points, each with none and all of the unsynced state kept", total)
}

func crashAndResume(t *testing.T, cfg contract.AgentConfig, model agentsModel, n int, keep vfs.Keep, want []contract.ToolResult) {
	t.Helper()
	fs := vfs.NewMem()
	st, err := store.OpenFS(fs)
	if err != nil {
		t.Fatal(err)
	}
	fs.CrashAfter(n)
	deps := testDeps(model, toolBox(t))
	deps.Env.Store = st
	a, err := conductor.CreateAgent(cfg, deps)
	if err != nil {
		t.Fatal(err)
	}
	_, _ = a.Submit(ctxT(t), conductor.Text("go"))
	_ = a.Close()
	fs.Restart(keep)

	st, err = store.OpenFS(fs)
	if err != nil {
		t.Fatalf("crash at write %d (%s): reopen: %v", n, keep, err)
	}
	deps = testDeps(model, toolBox(t))
	deps.Env.Store = st
	b, err := conductor.CreateAgent(cfg, deps)
	if err != nil {
		t.Fatal(err)
	}
	defer b.Close()
	snap, err := b.Resume(ctxT(t), "session_test")
	if errors.Is(err, store.ErrNotFound) {
		return // nothing of the session was durable
	}
	if err != nil {
		t.Fatalf("crash at write %d (%s): resume: %v", n, keep, err)
	}
	if snap.Phase != contract.PhaseSettled {
		t.Fatalf("crash at write %d (%s): resumed to %s (%v)", n, keep, snap.Phase, snap.Err)
	}
	got := results(snap)
	for i := range got {
		if got[i].IsError {
			t.Errorf("crash at write %d (%s): result %d is an error: %s", n, keep, i, got[i].Content)
		}
	}
	if len(got) == len(want) && got[0].Content != want[0].Content {
		t.Errorf("crash at write %d (%s): first result %q, want %q", n, keep, got[0].Content, want[0].Content)
	}
	checkDAG(t, st, "session_test", 4)
	if err := store.Replay(ctxT(t), st, cadence.New(cfg), "session_test"); err != nil {
		t.Errorf("crash at write %d (%s): replay: %v", n, keep, err)
	}
}
