package conductor_test

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"sync/atomic"
	"testing"
	"time"

	"github.com/batonrt/baton/cadence"
	"github.com/batonrt/baton/conductor"
	"github.com/batonrt/baton/contract"
	"github.com/batonrt/baton/store"
	"github.com/google/go-cmp/cmp"
)

// The config's ToolConcurrency bounds the calls running at once: the
// rules hold the rest back and start each as a running one settles.
func TestToolConcurrencyBoundsRunningCalls(t *testing.T) {
	var running, most atomic.Int32
	tool := rawTool(t, "work", func(ctx context.Context, _ json.RawMessage) (contract.ToolOutcome, error) {
		n := running.Add(1)
		defer running.Add(-1)
		for {
			m := most.Load()
			if n <= m || most.CompareAndSwap(m, n) {
				break
			}
		}
		select {
		case <-time.After(20 * time.Millisecond):
			return contract.ToolOutcome{Content: "ok"}, nil
		case <-ctx.Done():
			return contract.ToolOutcome{}, ctx.Err()
		}
	})
	calls := make([]call, 6)
	for i := range calls {
		calls[i] = call{fmt.Sprintf("c%d", i), "work", fmt.Sprintf(`{"n":%d}`, i)}
	}
	deps := testDeps(&fakeModel{replies: []replyFunc{callTools(calls...), say("done")}}, toolBox(t, tool))
	a := newAgent(t, contract.AgentConfig{ToolConcurrency: 2}, deps)
	snap, err := a.Submit(ctxT(t), conductor.Text("go"))
	if err != nil {
		t.Fatal(err)
	}
	if got := len(results(snap)); got != len(calls) {
		t.Fatalf("%d results, want %d", got, len(calls))
	}
	if m := most.Load(); m != 2 {
		t.Errorf("at most %d calls ran at once, want 2 (ToolConcurrency)", m)
	}
}

// With one call running at a time the next call starts in the step that
// records the previous one's result, so the same scripted session stores
// the same bytes every time.
func TestOneToolAtATimeStoresTheSameBytes(t *testing.T) {
	record := func() [][]byte {
		calls := []call{{"c1", "echo", `{"text":"a"}`}, {"c2", "echo", `{"text":"b"}`}, {"c3", "echo", `{"text":"c"}`}}
		deps := testDeps(&fakeModel{replies: []replyFunc{callTools(calls...), say("done")}}, toolBox(t, echoTool(t)))
		st := store.NewMemory()
		deps.Env.Store = st
		a := newAgent(t, contract.AgentConfig{ToolConcurrency: 1}, deps)
		if _, err := a.Submit(ctxT(t), conductor.Text("go")); err != nil {
			t.Fatal(err)
		}
		recs, err := st.Records(ctxT(t), "session_test")
		if err != nil {
			t.Fatal(err)
		}
		var out [][]byte
		for _, r := range recs {
			b, err := contract.EncodeRecord(r)
			if err != nil {
				t.Fatal(err)
			}
			out = append(out, b)
		}
		return out
	}
	want := record()
	for i := range 12 {
		got := record()
		if len(got) != len(want) {
			t.Fatalf("run %d: %d records, want %d", i, len(got), len(want))
		}
		for j := range want {
			if !bytes.Equal(want[j], got[j]) {
				t.Fatalf("run %d, record %d differs:\n%s\n%s", i, j+1, want[j], got[j])
			}
		}
	}
}

// A run recorded under rules revision 0 (its config names no revision)
// and interrupted with one call started and one handed out is resumed by
// this release: the resume moves the run to the latest revision, the
// started call (not idempotent) is indeterminate, the other runs, and
// the session replays under the rules each part was recorded with.
func TestResumeCarriesARevision0RunOn(t *testing.T) {
	ctx := ctxT(t)
	st := store.NewMemory()
	recorded := contract.AgentConfig{Model: "gpt-4o", Tools: []contract.ToolDescriptor{echoTool(t).Descriptor()}}.WithDefaults()
	recorded.Revision = 0
	old := cadence.New(recorded)
	s := cadence.InitialSnapshot("session_test")
	for _, sig := range []contract.Signal{
		contract.Submitted{RunID: "run_old", Input: []contract.Turn{contract.UserText("go")}, Config: &recorded, At: 1},
		contract.ModelReplied{Reply: contract.Turn{Role: contract.RoleAssistant, Blocks: []contract.Block{
			contract.CallBlock(contract.ToolCall{ID: "c1", Name: "echo", Arguments: `{"text":"a"}`}),
			contract.CallBlock(contract.ToolCall{ID: "c2", Name: "echo", Arguments: `{"text":"b"}`}),
		}}, Stop: contract.StopToolUse, At: 2},
		contract.ToolStarted{CallID: "c1", At: 3},
	} {
		next, effects, err := old.Step(s, sig)
		if err != nil {
			t.Fatal(err)
		}
		if _, err := st.Append(ctx, "session_test", effects[0].(*contract.Persist).Record); err != nil {
			t.Fatal(err)
		}
		s = next
	}
	deps := testDeps(&fakeModel{replies: []replyFunc{say("done")}}, toolBox(t, echoTool(t)))
	deps.Env.Store = st
	a := newAgent(t, contract.AgentConfig{}, deps)
	snap, err := a.Resume(ctx, "session_test")
	if err != nil {
		t.Fatal(err)
	}
	want := []contract.ToolResult{
		{CallID: "c1", Name: "echo", Content: "error: indeterminate: interrupted while running; the call may or may not have taken effect", IsError: true},
		{CallID: "c2", Name: "echo", Content: "b"},
	}
	if diff := cmp.Diff(want, results(snap)); diff != "" {
		t.Errorf("results mismatch (-want +got):\n%s", diff)
	}
	if snap.Phase != contract.PhaseSettled || snap.Revision != contract.CurrentRevision {
		t.Errorf("phase %s revision %d, want settled under revision %d", snap.Phase, snap.Revision, contract.CurrentRevision)
	}
	recs, err := st.Records(ctx, "session_test")
	if err != nil {
		t.Fatal(err)
	}
	if res, ok := recs[3].Signal.(contract.Resumed); !ok || res.Revision != contract.CurrentRevision {
		t.Errorf("record 4 is %+v, want a resume to revision %d", recs[3].Signal, contract.CurrentRevision)
	}
	for _, r := range recs[4:] {
		if r.Signal.SignalKind() == contract.SigToolStarted {
			t.Errorf("step %d: a tool_started record after the resume", r.Step)
		}
	}
	if err := store.Replay(ctx, st, cadence.New(contract.AgentConfig{Model: "other"}), "session_test"); err != nil {
		t.Errorf("replay: %v", err)
	}
}
