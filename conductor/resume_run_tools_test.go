package conductor_test

import (
	"context"
	"encoding/json"
	"errors"
	"sync/atomic"
	"testing"

	"github.com/batonrt/baton/conductor"
	"github.com/batonrt/baton/contract"
	"github.com/batonrt/baton/dispatch"
	"github.com/batonrt/baton/store"
)

// TestResumeRunsTheRunsOwnTools: a run given its tools with Submit
// (Input.Tools, as MCP tools are) is stopped while one of them, an
// idempotent one, runs. Resume promises that the interrupted idempotent
// call runs again; the tool must be given to the resumed run for that,
// and then it runs, instead of every call to it failing with "has no
// implementation" while the model is still offered it.
func TestResumeRunsTheRunsOwnTools(t *testing.T) {
	var runs atomic.Int32
	lookup := rawTool(t, "lookup", func(context.Context, json.RawMessage) (contract.ToolOutcome, error) {
		runs.Add(1)
		return contract.ToolOutcome{Content: "found it"}, nil
	}, dispatch.Idempotent())
	reply := callTools(call{"c1", "lookup", `{}`})
	base := store.NewMemory()
	deps := testDeps(&fakeModel{replies: []replyFunc{reply}}, toolBox(t))
	// Durable: the submit and the reply whose step starts the call; the
	// process dies before the call's outcome is recorded.
	deps.Env.Store = &crashingStore{Store: base, after: 2}
	a, err := conductor.CreateAgent(contract.AgentConfig{Model: "gpt-4o"}, deps)
	if err != nil {
		t.Fatal(err)
	}
	if _, err := a.Submit(ctxT(t), conductor.Input{Text: "go", Tools: []dispatch.Tool{lookup}}); !errors.Is(err, contract.ErrStore) {
		t.Fatalf("submit: %v", err)
	}
	_ = a.Close()
	runs.Store(0)

	deps2 := testDeps(&fakeModel{replies: []replyFunc{say("done")}}, toolBox(t))
	deps2.Env.Store = base
	b := newAgent(t, contract.AgentConfig{Model: "gpt-4o"}, deps2)
	snap, err := b.Resume(ctxT(t), "session_test", lookup)
	if err != nil || snap.Phase != contract.PhaseSettled {
		t.Fatalf("resume: %v, phase %s", err, snap.Phase)
	}
	res := results(snap)
	if len(res) != 1 || res[0].IsError || res[0].Content != "found it" || runs.Load() != 1 {
		t.Fatalf("the interrupted idempotent call was not run again: results %+v, runs %d", res, runs.Load())
	}
}
