package conductor_test

import (
	"context"
	"testing"

	"github.com/batonrt/baton/conductor"
	"github.com/batonrt/baton/contract"
	"github.com/batonrt/baton/store"
	"github.com/batonrt/baton/turn"
)

// panicking is a provider whose stream panics.
func panicking() *fakeModel {
	return &fakeModel{replies: []replyFunc{func(context.Context, contract.ModelRequest) ([]turn.Chunk, error) {
		panic("provider out of its depth")
	}}}
}

// TestProviderPanicFaultsTheRun: a provider that panics is a failed model
// call: Submit returns the run faulted with kind model, naming the panic,
// rather than hanging.
func TestProviderPanicFaultsTheRun(t *testing.T) {
	a := newAgent(t, contract.AgentConfig{}, testDeps(panicking(), toolBox(t)))
	snap, err := a.Submit(ctxT(t), conductor.Text("go"))
	re, ok := contract.AsRunError(err)
	if !ok || re.Kind != contract.KindModel {
		t.Fatalf("submit = %v, want a model fault", err)
	}
	want := "baton: model: other: turn: provider other: provider panicked: provider out of its depth"
	if err.Error() != want {
		t.Errorf("error %q, want %q", err, want)
	}
	if snap.Phase != contract.PhaseFaulted {
		t.Errorf("phase %s, want faulted", snap.Phase)
	}
}

// TestDelegateProviderPanicIsAnErrorResult: a child whose provider panics
// answers its delegate call with an error result, and the parent's run
// goes on and settles with the child's chain linked.
func TestDelegateProviderPanicIsAnErrorResult(t *testing.T) {
	model := agentsModel{"parent": delegateOnce(call{"c1", "delegate_researcher", `{"task":"x"}`})}
	st := store.NewMemory()
	deps := testDeps(model, toolBox(t, echoTool(t)))
	deps.Env.Store = st
	deps.Model.Delegates = map[string]turn.Provider{"researcher": panicking()}
	a := newAgent(t, twoDelegates(), deps)
	snap, err := a.Submit(ctxT(t), conductor.Text("go"))
	if err != nil {
		t.Fatal(err)
	}
	want := "error: delegate researcher: failed: baton: model: other: turn: provider other: provider panicked: provider out of its depth"
	if res := results(snap); len(res) != 1 || !res[0].IsError || res[0].Content != want {
		t.Fatalf("results %+v, want the one error %q", res, want)
	}
	checkDAG(t, st, "session_test", 1)
}
