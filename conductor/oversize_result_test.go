package conductor_test

import (
	"context"
	"encoding/json"
	"errors"
	"io"
	"strconv"
	"strings"
	"testing"

	"github.com/batonrt/baton/conductor"
	"github.com/batonrt/baton/contract"
	"github.com/batonrt/baton/store"
)

// A tool's result too large for one node of the session (a host raised
// the output cap to store.MaxNode, and the record around the output takes
// more) cannot be recorded: the run fails at
// once with the store's refusal, naming the limit, rather than retrying
// or running on, and the session keeps every step before it, readable
// and exportable, for a resume.
func TestToolResultOverTheNodeLimitFailsTheRun(t *testing.T) {
	m := &fakeModel{replies: []replyFunc{callTools(call{"c1", "huge", `{}`}), say("done")}}
	huge := rawTool(t, "huge", func(context.Context, json.RawMessage) (contract.ToolOutcome, error) {
		return contract.ToolOutcome{Content: strings.Repeat("x", store.MaxNode)}, nil
	})
	deps := testDeps(m, toolBox(t, huge))
	deps.Tools.OutputCap = store.MaxNode
	st := store.NewMemory()
	deps.Env.Store = st
	a := newAgent(t, contract.AgentConfig{}, deps)
	_, err := a.Submit(ctxT(t), conductor.Text("read it"))
	if !errors.Is(err, store.ErrInvalid) || !strings.Contains(err.Error(), strconv.Itoa(store.MaxNode)) {
		t.Fatalf("Submit: got %v, want the store's ErrInvalid naming the limit %d", err, store.MaxNode)
	}
	if n := len(m.requests); n != 1 {
		t.Errorf("%d model calls, want 1: the run must stop at the refused record", n)
	}
	recs, err := st.Records(t.Context(), "session_test")
	if err != nil {
		t.Fatalf("records of the session after the refusal: %v", err)
	}
	for _, r := range recs {
		if r.Signal.SignalKind() == contract.SigToolSettled {
			t.Errorf("step %d records the refused result", r.Step)
		}
	}
	if err := st.Export(t.Context(), io.Discard, "session_test"); err != nil {
		t.Errorf("export of the session after the refusal: %v", err)
	}
}
